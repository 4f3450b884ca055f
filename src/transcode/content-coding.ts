import type { IncomingHttpHeaders } from "node:http";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

const gunzipAsync = promisify(gunzip);

// The one coding decoded (RFC 9110 8.4.1.3); "x-gzip" is its old alias.
const GZIP = new Set(["gzip", "x-gzip"]);

/** What a 415 names in Accept-Encoding: the codings a request body may be sent in (RFC 9110 15.5.16). */
export const ACCEPTED_CODINGS = "gzip";

export type Codings =
  | { readonly kind: "ok"; readonly codings: readonly string[] }
  | { readonly kind: "unsupported"; readonly coding: string };

export type DecodeResult =
  | { readonly kind: "ok"; readonly bytes: Uint8Array }
  | { readonly kind: "too-large" }
  | { readonly kind: "malformed" };

/** No coding: the body as it came. */
export const NO_CODINGS: Codings = { kind: "ok", codings: [] };

/**
 * The codings a request body was sent in, in the order they were applied: Content-Encoding,
 * then any Transfer-Encoding other than chunked (which Node has already removed), as in
 * `Transfer-Encoding: gzip, chunked`. Only gzip is known; identity is no coding at all.
 */
export function requestCodings(headers: IncomingHttpHeaders): Codings {
  if (headers["content-encoding"] === undefined && headers["transfer-encoding"] === undefined) return NO_CODINGS;
  const listed = [headers["content-encoding"], headers["transfer-encoding"]]
    .flatMap((value) => (value ?? "").split(","))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity" && coding !== "chunked");
  const unknown = listed.find((coding) => !GZIP.has(coding));
  return unknown === undefined ? { kind: "ok", codings: listed } : { kind: "unsupported", coding: unknown };
}

/**
 * Undoes the codings, last applied first. Each decoded stage is held to `limit` too, so a small
 * gzip body that inflates past the limit (a gzip bomb) is refused, never inflated (spec 8).
 */
export function decodeBody(
  bytes: Uint8Array,
  codings: readonly string[],
  limit: number,
): DecodeResult | Promise<DecodeResult> {
  // Most bodies come uncoded: answered without a promise to wait for.
  if (codings.length === 0) return { kind: "ok", bytes };
  return gunzipAll(bytes, codings, limit);
}

async function gunzipAll(bytes: Uint8Array, codings: readonly string[], limit: number): Promise<DecodeResult> {
  let decoded = bytes;
  for (let i = codings.length - 1; i >= 0; i--) {
    try {
      decoded = await gunzipAsync(decoded, { maxOutputLength: limit });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return { kind: "too-large" };
      return { kind: "malformed" };
    }
  }
  return { kind: "ok", bytes: decoded };
}
