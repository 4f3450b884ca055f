import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Bearer tokens: API keys (`ek_...`, shown once) and member sessions (`es_...`, expiring).
// Only their SHA-256 is stored: a leaked table holds nothing that authenticates.

export const API_KEY_PREFIX = "ek_";
export const SESSION_PREFIX = "es_";

export interface IssuedToken {
  token: string;
  hash: string;
  /** The first characters, shown to tell keys apart. */
  displayPrefix: string;
}

export function issueToken(prefix: typeof API_KEY_PREFIX | typeof SESSION_PREFIX): IssuedToken {
  const token = `${prefix}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashToken(token), displayPrefix: token.slice(0, prefix.length + 6) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Constant-time comparison, so the operator token cannot be guessed byte by byte. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(authorization: string | null): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}
