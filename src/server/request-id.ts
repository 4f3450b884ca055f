import { randomUUID } from "node:crypto";

// A caller's (or a proxy's) X-Request-Id is kept when it is 1-128 of [A-Za-z0-9._:-]: enough
// for UUIDs, ULIDs and "trace:span" forms, and nothing a log line or header could be forged
// with (no spaces, quotes, commas or control characters). Anything else gets a fresh UUID.
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the incoming `x-request-id` when well-formed, else a generated one. */
export function acceptRequestId(header: string | string[] | undefined): string {
  return typeof header === "string" && WELL_FORMED.test(header) ? header : randomUUID();
}
