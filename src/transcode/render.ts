import {
  type DescField,
  type DescMessage,
  isFieldSet,
  type JsonObject,
  type JsonValue,
  type Message,
  type Registry,
  toJson,
} from "@bufbuild/protobuf";
import type { Route } from "./route-table.js";

/**
 * The response body of a route as proto3 canonical JSON (spec 2.1): implicit fields emitted
 * at their zero value, unset `optional` fields absent, and unset singular message fields
 * present as `null`. With `response_body`, only that top-level field (4.2).
 */
export function renderResponse(route: Route, message: Message, registry: Registry): JsonValue {
  const schema = route.method.output;
  const json = toJson(schema, message, { alwaysEmitImplicit: true, registry }) as JsonObject;
  addNulls(schema, message, json);
  if (route.responseBody === undefined) return json;
  return json[route.responseBody.jsonName] ?? null;
}

const renderedText = new WeakMap<Message, { route: Route; text: string }>();

/**
 * `renderResponse` as JSON text. A frozen message cannot change, so its text is kept and served
 * again while the message lives: an implementation that answers many calls with one shared
 * answer (the public reads' cache) freezes it, and each call after the first skips the render.
 */
export function renderResponseText(route: Route, message: Message, registry: Registry): string {
  const frozen = Object.isFrozen(message);
  if (frozen) {
    const kept = renderedText.get(message);
    if (kept?.route === route) return kept.text;
  }
  const text = JSON.stringify(renderResponse(route, message, registry));
  if (frozen) renderedText.set(message, { route, text });
  return text;
}

interface NullPlan {
  /** Singular message fields without explicit optionality: `null` when unset. */
  readonly nullable: readonly DescField[];
  /** Fields holding messages we descend into (singular, list or map values). */
  readonly nested: readonly DescField[];
}

const plans = new WeakMap<DescMessage, NullPlan>();

// Computed once per message type: rendering walks only fields that can need a null.
function planFor(schema: DescMessage): NullPlan {
  let plan = plans.get(schema);
  if (plan !== undefined) return plan;
  const nullable: DescField[] = [];
  const nested: DescField[] = [];
  for (const field of schema.fields) {
    if (field.fieldKind === "message") {
      // A oneof member or a proto3 `optional` field is absent when unset, like optional scalars.
      if (field.oneof === undefined && !field.proto.proto3Optional) nullable.push(field);
      if (!isWellKnown(field.message)) nested.push(field);
    } else if (
      (field.fieldKind === "list" && field.listKind === "message") ||
      (field.fieldKind === "map" && field.mapKind === "message")
    ) {
      if (!isWellKnown(field.message)) nested.push(field);
    }
  }
  plan = { nullable, nested };
  plans.set(schema, plan);
  return plan;
}

// Well-known types have their own JSON forms (Timestamp is a string, Any is inlined, ...);
// their insides are never rendered as plain message objects.
function isWellKnown(schema: DescMessage): boolean {
  return schema.typeName.startsWith("google.protobuf.");
}

function addNulls(schema: DescMessage, message: Message, json: JsonObject): void {
  const plan = planFor(schema);
  for (const field of plan.nullable) {
    if (!isFieldSet(message, field)) json[field.jsonName] = null;
  }
  const values = message as unknown as Record<string, unknown>;
  for (const field of plan.nested) {
    const value =
      field.oneof === undefined ? values[field.localName] : oneofValue(values[field.oneof.localName], field);
    const rendered = json[field.jsonName];
    if (value === undefined || rendered === undefined || rendered === null || field.message === undefined) continue;
    const child = field.message;
    if (field.fieldKind === "list") {
      const items = rendered as JsonObject[];
      (value as Message[]).forEach((item, i) => {
        addNulls(child, item, items[i] as JsonObject);
      });
    } else if (field.fieldKind === "map") {
      for (const [k, item] of Object.entries(value as Record<string, Message>)) {
        addNulls(child, item, (rendered as Record<string, JsonObject>)[k] as JsonObject);
      }
    } else {
      addNulls(child, value as Message, rendered as JsonObject);
    }
  }
}

// protobuf-es v2 keeps oneof members as `{ case, value }` under the oneof's name.
function oneofValue(oneof: unknown, field: DescField): unknown {
  const selected = oneof as { case: string | undefined; value?: unknown } | undefined;
  return selected?.case === field.localName ? selected.value : undefined;
}
