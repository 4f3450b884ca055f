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

const int64Types = new Set([ScalarType.INT64, ScalarType.SINT64, ScalarType.SFIXED64]);
const uint64Types = new Set([ScalarType.UINT64, ScalarType.FIXED64]);

/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses) of messages in proto3 canonical JSON: fields by
 * their lowerCamelCase JSON names, 64-bit integers as decimal strings, enums by value name,
 * well-known types in their own JSON forms (Timestamp and Duration strings, FieldMask a
 * comma-separated list of lowerCamelCase paths, Any with `@type`).
 */
export function createMessageSchemas(options: MessageSchemasOptions = {}): MessageSchemas {
  const schemas: Record<string, JsonSchema> = {};
  const describe = (desc: DescMessage | DescEnum | DescField) => {
    const text = options.describe?.(desc);
    return text === undefined || text === "" ? {} : { description: text };
  };
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

export function scalarSchema(scalar: ScalarType): JsonSchema {
  if (int64Types.has(scalar)) return { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
  if (uint64Types.has(scalar)) return { type: "string", format: "uint64", pattern: "^[0-9]+$" };
  switch (scalar) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", format: "uint32", minimum: 0 };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return {
        anyOf: [{ type: "number" }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }],
        format: scalar === ScalarType.FLOAT ? "float" : "double",
      };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    default:
      return { type: "string" };
  }
}

const wrapperScalars: Record<string, ScalarType> = {
  DoubleValue: ScalarType.DOUBLE,
  FloatValue: ScalarType.FLOAT,
  Int64Value: ScalarType.INT64,
  UInt64Value: ScalarType.UINT64,
  Int32Value: ScalarType.INT32,
  UInt32Value: ScalarType.UINT32,
  BoolValue: ScalarType.BOOL,
  StringValue: ScalarType.STRING,
  BytesValue: ScalarType.BYTES,
};

// ProtoJSON's own forms of the well-known types.
function wellKnownSchema(message: DescMessage): JsonSchema | undefined {
  if (!message.typeName.startsWith("google.protobuf.")) return undefined;
  const short = message.typeName.slice("google.protobuf.".length);
  const wrapped = wrapperScalars[short];
  if (wrapped !== undefined) return scalarSchema(wrapped);
  switch (short) {
    case "Timestamp":
      return { type: "string", format: "date-time" };
    case "Duration":
      return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" };
    case "FieldMask":
      return {
        type: "string",
        description: "google.protobuf.FieldMask: comma-separated field paths in lowerCamelCase",
      };
    case "Empty":
      return { type: "object", additionalProperties: false };
    case "Any":
      return {
        type: "object",
        description: "google.protobuf.Any: `@type` names the message, whose fields follow",
        properties: { "@type": { type: "string" } },
        required: ["@type"],
      };
    case "Struct":
      return { type: "object" };
    case "ListValue":
      return { type: "array" };
    case "Value":
      return {};
    default:
      return undefined;
  }
}

function isOutputOnly(field: DescField): boolean {
  return hasOption(field, field_behavior) && getOption(field, field_behavior).includes(FieldBehavior.OUTPUT_ONLY);
}
