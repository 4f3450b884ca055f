import type { JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** True for `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semicolon = value.indexOf(";");
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase() === "application/json";
}

/**
 * Parses a body as JSON; empty means none (spec 4: read as `{}`). Bad UTF-8 or JSON: code 3.
 * An integer a JS number cannot hold exactly is refused too: ProtoJSON lets a 64-bit field be
 * a JSON number, but past 2^53 the parse has already changed it (an order id would then name
 * another purchase), so such values must come as strings (spec 2.1).
 */
export function parseJsonBody(bytes: Uint8Array): JsonValue | undefined {
  if (bytes.length === 0) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(decoder.decode(bytes)) as JsonValue;
  } catch {
    throw new ConnectError("the request body is not valid JSON", Code.InvalidArgument);
  }
  if (hasInexactInteger(value)) {
    throw new ConnectError(
      "the request body has an integer too large for a JSON number; send 64-bit integers as strings",
      Code.InvalidArgument,
    );
  }
  return value;
}

// Iterative: a body may nest deeper than the call stack goes.
function hasInexactInteger(root: JsonValue): boolean {
  const pending: JsonValue[] = [root];
  for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
    if (typeof value === "number") {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) return true;
    } else if (Array.isArray(value)) {
      pending.push(...value);
    } else if (value !== null && typeof value === "object") {
      pending.push(...Object.values(value));
    }
  }
  return false;
}
