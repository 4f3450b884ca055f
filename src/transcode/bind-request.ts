import {
  type DescField,
  fromJson,
  type JsonObject,
  type JsonValue,
  type Message,
  type Registry,
  ScalarType,
} from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { resolveFieldPath } from "./field-path.js";
import type { PathVariables } from "./path-template.js";
import type { Route } from "./route-table.js";

export interface BindRequestOptions {
  readonly route: Route;
  readonly variables: PathVariables;
  /** The parsed JSON body; undefined when the request had none (read as `{}`, spec 4). */
  readonly body: JsonValue | undefined;
  /** Raw query string without "?"; ignored when the rule's body is "*" (4.2). */
  readonly query: string;
  readonly registry: Registry;
}

const invalid = (message: string) => new ConnectError(message, Code.InvalidArgument);

/**
 * Builds the request message in the order of api-conventions 4.2: body, then path variables,
 * then query parameters, assembled as one ProtoJSON object and decoded once. Unknown body
 * keys and query parameters are ignored (spec 2.1, 9.2).
 */
export function bindRequest(options: BindRequestOptions): Message {
  const { route } = options;
  const json = bodyJson(route, options.body);
  for (const [dotted, value] of options.variables) {
    const fields = route.pathFields.get(dotted) as readonly DescField[];
    const { parent, key, leaf } = walk(json, fields);
    const converted = scalarFromText(leaf, value);
    const existing = parent[key];
    if (existing !== undefined && existing !== null && String(existing) !== String(converted)) {
      throw invalid(`${dotted} in the path ("${value}") conflicts with the body`);
    }
    parent[key] = converted;
  }
  if (route.body.kind !== "all" && options.query !== "") bindQuery(json, route, options.query);
  try {
    return fromJson(route.method.input, json, { ignoreUnknownFields: true, registry: options.registry });
  } catch (e) {
    throw invalid(e instanceof Error ? e.message : "request does not decode");
  }
}

function bodyJson(route: Route, body: JsonValue | undefined): JsonObject {
  switch (route.body.kind) {
    case "none":
      return {};
    case "all":
      if (body === undefined) return {};
      if (!isObject(body)) throw invalid("the request body must be a JSON object");
      return body;
    case "field": {
      const { field } = route.body;
      if (body === undefined) return field.fieldKind === "message" ? { [field.jsonName]: {} } : {};
      return { [field.jsonName]: body };
    }
  }
}

function bindQuery(json: JsonObject, route: Route, query: string): void {
  const params = new URLSearchParams(query);
  const bodyField = route.body.kind === "field" ? route.body.field : undefined;
  for (const name of new Set(params.keys())) {
    const fields = resolveFieldPath(route.method.input, name.split("."));
    const first = fields?.[0];
    const leaf = fields?.[fields.length - 1];
    // Unknown names are ignored like unknown body keys; fields bound by the body or the path
    // are not overridable from the query (grpc-gateway filters them the same way).
    if (fields === undefined || first === undefined || leaf === undefined || first === bodyField) continue;
    if (route.pathFields.has(fields.map((f) => f.name).join("."))) continue;
    const values = params.getAll(name);
    const target = walk(json, fields);
    target.parent[target.key] = queryValue(name, leaf, values);
  }
}

function queryValue(name: string, leaf: DescField, values: string[]): JsonValue {
  if (leaf.fieldKind === "list" && leaf.listKind !== "message") {
    return values.map((v) => scalarFromText(leaf, v));
  }
  if (values.length > 1) throw invalid(`query parameter ${name} is given more than once`);
  const value = values[0] ?? "";
  if (leaf.fieldKind === "scalar" || leaf.fieldKind === "enum") return scalarFromText(leaf, value);
  if (leaf.fieldKind === "message" && stringJsonTypes.has(leaf.message.typeName)) {
    // Wrappers take their wrapped scalar's form (BoolValue from "true", ...); FieldMask,
    // Timestamp and Duration already are strings in ProtoJSON.
    const inner = leaf.message.typeName.endsWith("Value") ? leaf.message.fields[0] : undefined;
    return inner === undefined ? value : scalarFromText(inner, value);
  }
  throw invalid(`query parameter ${name} names a field that cannot be set from the query string`);
}

const stringJsonTypes = new Set(
  "FieldMask Timestamp Duration DoubleValue FloatValue Int64Value UInt64Value Int32Value UInt32Value BoolValue StringValue BytesValue"
    .split(" ")
    .map((n) => `google.protobuf.${n}`),
);

/** Text from a path or query into the JSON value ProtoJSON reads for that field. */
function scalarFromText(field: DescField, text: string): JsonValue {
  const enumType = field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum");
  if (enumType) return /^-?\d+$/.test(text) ? Number(text) : text;
  const scalar =
    field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar")
      ? field.scalar
      : undefined;
  if (scalar === ScalarType.BOOL) {
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
    throw invalid(`${field.name}: "${text}" is not a boolean`);
  }
  // Strings, bytes (base64) and every number: ProtoJSON readers accept numbers quoted, and
  // 64-bit integers must stay strings to keep their precision.
  return text;
}

/**
 * Walks (creating) the nested objects of a field path, keyed by JSON names. A key a client
 * spelled with the proto name is moved to the JSON name so the two never both appear.
 */
function walk(root: JsonObject, fields: readonly DescField[]): { parent: JsonObject; key: string; leaf: DescField } {
  let parent = root;
  for (let i = 0; ; i++) {
    const field = fields[i] as DescField;
    const key = field.jsonName;
    if (field.name !== key && parent[field.name] !== undefined && parent[key] === undefined) {
      parent[key] = parent[field.name] as JsonValue;
      delete parent[field.name];
    }
    if (i === fields.length - 1) return { parent, key, leaf: field };
    const next = parent[key];
    if (next === undefined || next === null) {
      const created: JsonObject = {};
      parent[key] = created;
      parent = created;
    } else if (isObject(next)) {
      parent = next;
    } else {
      throw invalid(`${field.name} must be a JSON object`);
    }
  }
}

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
