// AIP-154 etags, derived from a row's `version` (bumped by every write). Quoted like an
// RFC 7232 strong validator; opaque to callers.

export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The version a caller's etag names; undefined when it names none. A malformed etag can never
 * match, so callers answer it as a stale one (ABORTED).
 */
export function versionOfEtag(etag: string): number | undefined {
  const match = /^"([1-9][0-9]{0,9})"$/.exec(etag);
  if (!match) return undefined;
  const version = Number(match[1]);
  return Number.isSafeInteger(version) ? version : undefined;
}
