import { type DescEnum, type DescField, type DescMessage, getOption, hasOption, ScalarType } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../gen/google/api/field_behavior_pb.js";

export type JsonSchema = { readonly [key: string]: unknown };

/**
 * `output`: a message as the transcoder writes it (render.ts): every field present, implicit
 * ones at their zero value, unset singular messages as null; only `optional` fields and oneof
 * members may be absent. `input`: as it reads one: every field optional.
 */
export type SchemaMode = "output" | "input";

export interface MessageSchemas {
  /** A `$ref` to the message's component schema, adding it (and what it needs) on first use. */
  ref(message: DescMessage, mode: SchemaMode): JsonSchema;
  /** The JSON Schema of one field's value. */
  field(field: DescField, mode: SchemaMode): JsonSchema;
  /** Every component schema added so far, by name. */
  components(): Record<string, JsonSchema>;
}

export interface MessageSchemasOptions {
  /** A description for a message, enum or field (its proto comment), if any. */
  describe?: (desc: DescMessage | DescEnum | DescField) => string | undefined;
}

/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses) of messages in proto3 canonical JSON: fields by
 * their lowerCamelCase JSON names, 64-bit integers as decimal strings, enums by value name,
 * well-known types in their own JSON forms (Timestamp and Duration strings, FieldMask a
 * comma-separated list of lowerCamelCase paths, Any with `@type`).
 */
export function createMessageSchemas(options: MessageSchemasOptions = {}): MessageSchemas {
  const schemas: Record<string, JsonSchema> = {};
  const describe = (desc: DescMessage | DescEnum | DescField) => described(options.describe?.(desc));
  const name = (message: DescMessage, mode: SchemaMode) =>
    mode === "output" ? message.typeName : `${message.typeName}.Input`;

  const ref = (message: DescMessage, mode: SchemaMode): JsonSchema => {
    const wellKnown = wellKnownSchema(message);
    if (wellKnown !== undefined) return wellKnown;
    const key = name(message, mode);
    if (!(key in schemas)) {
      schemas[key] = {}; // placeholder: recursive messages refer to themselves
      schemas[key] = messageSchema(message, mode);
    }
    return { $ref: `#/components/schemas/${key}` };
  };

  const messageSchema = (message: DescMessage, mode: SchemaMode): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const f of message.fields) {
      properties[f.jsonName] = field(f, mode);
      if (mode === "output" && f.oneof === undefined && !f.proto.proto3Optional) required.push(f.jsonName);
    }
    return {
      type: "object",
      ...describe(message),
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    };
  };

  const field = (f: DescField, mode: SchemaMode): JsonSchema => {
    const extra = { ...describe(f), ...(isOutputOnly(f) ? { readOnly: true } : {}) };
    switch (f.fieldKind) {
      case "scalar":
        return { ...scalarSchema(f.scalar), ...extra };
      case "enum":
        return { ...enumSchema(f.enum), ...extra };
      case "message": {
        const value = ref(f.message, mode);
        // An unset singular message is written as null; optional and oneof ones are left out.
        const nullable = f.oneof === undefined && !f.proto.proto3Optional;
        return nullable ? { anyOf: [value, { type: "null" }], ...extra } : { ...value, ...extra };
      }
      case "list":
        return { type: "array", items: itemSchema(f, mode), ...extra };
      case "map":
        return { type: "object", additionalProperties: itemSchema(f, mode), ...extra };
    }
  };

  const itemSchema = (f: DescField & { fieldKind: "list" | "map" }, mode: SchemaMode): JsonSchema => {
    const kind = f.fieldKind === "list" ? f.listKind : f.mapKind;
    if (kind === "message" && f.message !== undefined) return ref(f.message, mode);
    if (kind === "enum" && f.enum !== undefined) return enumSchema(f.enum);
    return scalarSchema(f.scalar ?? ScalarType.STRING);
  };

  const enumSchema = (desc: DescEnum): JsonSchema =>
    desc.typeName === "google.protobuf.NullValue"
      ? { type: "null" }
      : { type: "string", enum: desc.values.map((v) => v.name), ...describe(desc) };

  return { ref, field, components: () => schemas };
}

/** `{ description }` when there is one to give. */
export function described(text: string | undefined): { description?: string } {
  return text === undefined || text === "" ? {} : { description: text };
}

const int32 = { type: "integer", format: "int32" };
const uint32 = { type: "integer", format: "uint32", minimum: 0 };
const int64 = { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
const uint64 = { type: "string", format: "uint64", pattern: "^[0-9]+$" };
const number = (format: string) => ({
  anyOf: [{ type: "number" }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }],
  format,
});

const scalarSchemas: Partial<Record<ScalarType, JsonSchema>> = {
  [ScalarType.INT32]: int32,
  [ScalarType.SINT32]: int32,
  [ScalarType.SFIXED32]: int32,
  [ScalarType.UINT32]: uint32,
  [ScalarType.FIXED32]: uint32,
  [ScalarType.INT64]: int64,
  [ScalarType.SINT64]: int64,
  [ScalarType.SFIXED64]: int64,
  [ScalarType.UINT64]: uint64,
  [ScalarType.FIXED64]: uint64,
  [ScalarType.DOUBLE]: number("double"),
  [ScalarType.FLOAT]: number("float"),
  [ScalarType.BOOL]: { type: "boolean" },
  [ScalarType.BYTES]: { type: "string", contentEncoding: "base64" },
};

function scalarSchema(scalar: ScalarType): JsonSchema {
  return scalarSchemas[scalar] ?? { type: "string" };
}

// ProtoJSON's own forms of the well-known types, by name under google.protobuf.
const wellKnownSchemas: Record<string, JsonSchema> = {
  DoubleValue: scalarSchema(ScalarType.DOUBLE),
  FloatValue: scalarSchema(ScalarType.FLOAT),
  Int64Value: int64,
  UInt64Value: uint64,
  Int32Value: int32,
  UInt32Value: uint32,
  BoolValue: scalarSchema(ScalarType.BOOL),
  StringValue: { type: "string" },
  BytesValue: scalarSchema(ScalarType.BYTES),
  Timestamp: { type: "string", format: "date-time" },
  Duration: { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" },
  FieldMask: {
    type: "string",
    description: "google.protobuf.FieldMask: comma-separated field paths in lowerCamelCase",
  },
  Empty: { type: "object", additionalProperties: false },
  Any: {
    type: "object",
    description: "google.protobuf.Any: `@type` names the message, whose fields follow",
    properties: { "@type": { type: "string" } },
    required: ["@type"],
  },
  Struct: { type: "object" },
  ListValue: { type: "array" },
  Value: {},
};

function wellKnownSchema(message: DescMessage): JsonSchema | undefined {
  const [, short] = /^google\.protobuf\.(\w+)$/.exec(message.typeName) ?? [];
  return short === undefined ? undefined : wellKnownSchemas[short];
}

function isOutputOnly(field: DescField): boolean {
  return hasOption(field, field_behavior) && getOption(field, field_behavior).includes(FieldBehavior.OUTPUT_ONLY);
}
