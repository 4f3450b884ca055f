import type { DescField, DescMessage } from "@bufbuild/protobuf";
import type { Route } from "../transcode/route-table.js";
import { described, type MessageSchemas } from "./message-schemas.js";

// Message types the transcoder reads from one query value (bind-request.ts).
const fromText =
  /^google\.protobuf\.(FieldMask|Timestamp|Duration|(Double|Float|U?Int(32|64)|Bool|String|Bytes)Value)$/;
const MAX_DEPTH = 3;

/**
 * The query parameters of a route: every field the body and the path leave unbound, by its
 * dotted lowerCamelCase path, as bind-request.ts reads them (a repeated field repeats the
 * parameter; `update_mask` is `updateMask=a,b`).
 */
export function queryParameters(route: Route, schemas: MessageSchemas): object[] {
  const bodyField = route.body.kind === "field" ? route.body.field : undefined;
  const pathBound = new Set(route.pathFields.keys());
  const out: object[] = [];
  const visit = (message: DescMessage, prefix: DescField[], seen: Set<string>): void => {
    for (const field of message.fields) {
      const path = [...prefix, field];
      if (prefix.length === 0 && field === bodyField) continue;
      if (pathBound.has(path.map((f) => f.name).join("."))) continue;
      const readable =
        field.fieldKind === "scalar" ||
        field.fieldKind === "enum" ||
        (field.fieldKind === "list" && field.listKind !== "message") ||
        (field.fieldKind === "message" && fromText.test(field.message.typeName));
      if (readable) {
        const schema = (
          field.fieldKind === "message"
            ? withDescription(schemas.ref(field.message, "input"), schemas.field(field, "input"))
            : schemas.field(field, "input")
        ) as { description?: string; readOnly?: boolean };
        const { description, readOnly: _, ...rest } = schema;
        out.push({
          name: path.map((f) => f.jsonName).join("."),
          in: "query",
          ...described(description),
          schema: rest,
          ...(field.fieldKind === "list" ? { style: "form", explode: true } : {}),
        });
      } else if (field.fieldKind === "message" && path.length < MAX_DEPTH && !seen.has(field.message.typeName)) {
        visit(field.message, path, new Set([...seen, field.message.typeName]));
      }
    }
  };
  visit(route.method.input, [], new Set([route.method.input.typeName]));
  return out;
}

// A well-known type's own note (e.g. FieldMask's format) follows the field's comment.
function withDescription(type: object, field: object): object {
  const notes = [field, type].map((s) => (s as { description?: string }).description).filter((d) => d !== undefined);
  return notes.length === 0 ? type : { ...type, description: notes.join("\n\n") };
}
