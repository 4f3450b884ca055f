import type { DescField, DescMessage } from "@bufbuild/protobuf";

// Field lookup by either spelling: templates and query strings name fields by their proto
// name (`campaign.display_name`), clients often by the JSON name (`displayName`).
const byName = new WeakMap<DescMessage, ReadonlyMap<string, DescField>>();

function findField(message: DescMessage, name: string): DescField | undefined {
  let fields = byName.get(message);
  if (fields === undefined) {
    const map = new Map<string, DescField>();
    for (const f of message.fields) {
      map.set(f.name, f);
      map.set(f.jsonName, f);
    }
    byName.set(message, map);
    fields = map;
  }
  return fields.get(name);
}

/**
 * Resolves a dotted path to its fields: every field but the last must be a singular message
 * field. Undefined when a name is unknown or the path walks through a list or map.
 */
export function resolveFieldPath(message: DescMessage, path: readonly string[]): DescField[] | undefined {
  const fields: DescField[] = [];
  let current: DescMessage | undefined = message;
  for (const name of path) {
    if (current === undefined) return undefined;
    const field = findField(current, name);
    if (field === undefined) return undefined;
    fields.push(field);
    current = field.fieldKind === "message" ? field.message : undefined;
  }
  return fields;
}
