import type { JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** True for `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semicolon = value.indexOf(";");
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase() === "application/json";
}

/** Parses a body as JSON; empty means none (spec 4: read as `{}`). Bad UTF-8 or JSON: code 3. */
export function parseJsonBody(bytes: Uint8Array): JsonValue | undefined {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes)) as JsonValue;
  } catch {
    throw new ConnectError("the request body is not valid JSON", Code.InvalidArgument);
  }
}
