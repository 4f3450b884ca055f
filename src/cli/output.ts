import { type DescMessage, type MessageShape, toJson } from "@bufbuild/protobuf";

/** Where a command's result goes: JSON for scripts (`--json`), or lines for people. */
export interface Output {
  json: boolean;
  write(text: string): void;
}

/** Prints `value` as one JSON document, or the human lines. */
export function emit(output: Output, value: unknown, lines: () => string[]): void {
  if (output.json) {
    output.write(`${JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v))}\n`);
    return;
  }
  output.write(`${lines().join("\n")}\n`);
}

/**
 * A message in protobuf's canonical JSON (64-bit integers as strings, enums by name), every
 * field present as the service sends it (spec 2.1): a zero amount keeps `"units": "0"`.
 */
export function messageJson<S extends DescMessage>(schema: S, message: MessageShape<S>): unknown {
  return toJson(schema, message, { alwaysEmitImplicit: true });
}

/** The human lines of a list: its rows, or one line saying there are none. */
export function listLines(rows: string[], none: string, nextPageToken: string): string[] {
  if (rows.length === 0 && !nextPageToken) return [none];
  return [...rows, ...(nextPageToken ? [`next page: --page-token ${nextPageToken}`] : [])];
}
