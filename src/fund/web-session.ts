import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { hashToken } from "../core/credentials.js";

// The funding page's browser session (docs/game-integration.md, "Funding from the web"): a
// random token in an HttpOnly, SameSite=Lax cookie scoped to /fund, Secure when the page is
// served over TLS; the database keeps only its SHA-256. Forms carry a token derived from it, so
// a page of another site, which cannot read the cookie, cannot make a form that passes.

const SESSION_COOKIE = "fund_session";
/** How long a session lasts after it was created or signed in. */
const WEB_SESSION_TTL_MS = 60 * 60_000;

const TOKEN_BYTES = 32;
const FORM_TOKEN_CONTEXT = "encore fund form token v1";

export function newSessionToken() {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, hash: hashToken(token) };
}

/** A session created or signed in `now`: when it expires. */
export const sessionLife = (now: Date) => ({ now, expireTime: new Date(now.getTime() + WEB_SESSION_TTL_MS) });

/** A fresh id for a session row, and a state for one sign-in (carried in its return_to). */
export const newSessionId = (): string => randomUUID();
export const newSignInState = (): string => randomBytes(18).toString("base64url");

/** The session token a request's cookie carries, if any (the first of our name). */
export function cookieToken(headers: IncomingHttpHeaders): string | undefined {
  for (const pair of (headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
  }
  return undefined;
}

export function sessionCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(WEB_SESSION_TTL_MS / 1000);
  return `${SESSION_COOKIE}=${token}; Path=/fund; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/fund; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The token a session's forms carry: an HMAC of the session's own token, never stored. */
export function formToken(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update(FORM_TOKEN_CONTEXT).digest("base64url");
}

export function formTokenMatches(sessionToken: string, given: string | null): boolean {
  if (!given) return false;
  const expected = Buffer.from(formToken(sessionToken));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
