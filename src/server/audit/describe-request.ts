import {
  clone,
  type DescField,
  type DescMessage,
  hasOption,
  type JsonValue,
  type Message,
  toJson,
} from "@bufbuild/protobuf";
import {
  isReflectList,
  isReflectMap,
  isReflectMessage,
  type ReflectMessage,
  reflect,
} from "@bufbuild/protobuf/reflect";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { resource, resource_reference } from "../../../gen/google/api/resource_pb.js";
import { isOutputOnly, isSecretField } from "./secret-fields.js";

// What an audit event says a request did: the fields it changed, the resource it
// named and the request itself with every secret and output-only value taken out. Generic over
// request messages (protobuf reflection), so a new method is described without a line here.

// Top-level fields that say which resource or how, not what changed.
const NOT_CHANGES = new Set(["name", "parent", "request_id", "etag", "update_mask", "validate_only", "allow_missing"]);

/**
 * The field paths a request sets, in proto names: its update mask when it has one, else every
 * field it sets, relative to the resource it carries (`display_name`, `steam.publisher_key`).
 * Names only: a secret field's name is recorded, never its value.
 */
export function changedFields(desc: DescMessage, message: Message): string[] {
  const request = reflect(desc, message);
  const mask = desc.fields.find((field) => field.name === "update_mask");
  if (mask && request.isSet(mask)) {
    const value = request.get(mask);
    if (isReflectMessage(value)) return [...(value.message as FieldMask).paths];
  }
  const paths: string[] = [];
  for (const field of setFields(request)) {
    if (NOT_CHANGES.has(field.name)) continue;
    const value = request.get(field);
    if (isReflectMessage(value) && isResource(field.message)) paths.push(...leafPaths(value, ""));
    else paths.push(...leafPaths(request, "", [field]));
  }
  return paths;
}

/** The request as JSON without any secret-bearing or output-only value. */
export function redactedRequest(desc: DescMessage, message: Message): JsonValue {
  const copy = clone(desc, message);
  strip(reflect(desc, copy));
  try {
    return toJson(desc, copy);
  } catch {
    // A field toJson cannot write without a registry (google.protobuf.Any): record the shape only.
    return {};
  }
}

/**
 * The resource a call acted on: the request's `name`, the name of the resource it carries, the
 * response's resource (a create), the request's `parent` (a create that failed), or the first
 * resource it refers to (CreateSession's member); "" when it names none.
 */
export function resourceOf(
  request: { desc: DescMessage; message: Message },
  response: { desc: DescMessage; message: Message } | undefined,
): string {
  const req = reflect(request.desc, request.message);
  const res = response && reflect(response.desc, response.message);
  return (
    text(req, "name") ||
    nestedName(req) ||
    (res ? text(res, "name") || nestedName(res) : "") ||
    text(req, "parent") ||
    firstReference(req)
  );
}

function strip(message: ReflectMessage): void {
  for (const field of setFields(message)) {
    if (isSecretField(field) || isOutputOnly(field)) {
      message.clear(field);
      continue;
    }
    const value = message.get(field);
    const items = isReflectMessage(value)
      ? [value]
      : isReflectList(value)
        ? [...value]
        : isReflectMap(value)
          ? [...value.values()]
          : [];
    for (const item of items) if (isReflectMessage(item)) strip(item);
  }
}

// Our own messages are walked into; google.* values (Money, Timestamp) are one field each.
function leafPaths(message: ReflectMessage, prefix: string, only?: DescField[]): string[] {
  const paths: string[] = [];
  for (const field of only ?? setFields(message)) {
    if (isOutputOnly(field) || (only === undefined && (field.name === "name" || field.name === "etag"))) continue;
    const path = `${prefix}${field.name}`;
    const value = message.get(field);
    const inner =
      isReflectMessage(value) && value.desc.typeName.startsWith("encore.") ? leafPaths(value, `${path}.`) : [];
    paths.push(...(inner.length > 0 ? inner : [path]));
  }
  return paths;
}

function setFields(message: ReflectMessage): DescField[] {
  return message.fields.filter((field) => message.isSet(field));
}

function isResource(desc: DescMessage | undefined): boolean {
  return desc !== undefined && hasOption(desc, resource);
}

function text(message: ReflectMessage, name: string): string {
  const field = message.desc.fields.find((candidate) => candidate.name === name && candidate.fieldKind === "scalar");
  const value = field && message.get(field);
  return typeof value === "string" ? value : "";
}

function nestedName(message: ReflectMessage): string {
  for (const field of setFields(message)) {
    const value = message.get(field);
    if (isReflectMessage(value) && isResource(field.message)) {
      const name = text(value, "name");
      if (name) return name;
    }
  }
  return "";
}

function firstReference(message: ReflectMessage): string {
  for (const field of setFields(message)) {
    const value = message.get(field);
    if (typeof value === "string" && value !== "" && hasOption(field, resource_reference)) return value;
  }
  return "";
}
