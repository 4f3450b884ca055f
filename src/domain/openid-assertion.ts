// What a Steam sign-in's return must say besides what the provider vouches for (OpenID 2.0
// section 11.1 and 11.3; reference steam-partner-api.md section 11): the return_to is the one this
// sign-in sent, and the response nonce is fresh. The provider's own check (check_authentication,
// with the identifier and signature rules) is the platform client's; a nonce's first use is the
// store's to decide.

/**
 * The fields a positive assertion must sign (OpenID 2.0 section 10.1), in the order Steam signs
 * them after `signed` itself. Wire names of the protocol: `assoc_handle` is OpenID's association
 * handle, not any library's field.
 */
export const ASSERTION_SIGNED_FIELDS = [
  "op_endpoint",
  "claimed_id",
  "identity",
  "return_to",
  "response_nonce",
  "assoc_handle",
] as const;

/** How old a response nonce may be (its time is the provider's clock), and how far ahead of ours. */
export const NONCE_MAX_AGE_MS = 5 * 60_000;
const NONCE_MAX_AHEAD_MS = 60_000;
const NONCE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)./;

export type ReturnCheck =
  | { ok: true; nonce: string }
  | { ok: false; problem: "cancelled" | "wrong-return-to" | "stale-nonce" };

/**
 * Checks a sign-in's returned `openid.*` fields against what was sent: not cancelled, for exactly
 * the return_to this sign-in sent (section 11.1), with a response nonce no older than
 * `NONCE_MAX_AGE_MS` (section 11.3; older ones may have been forgotten by the replay check).
 */
export function checkSignInReturn(
  fields: Readonly<Record<string, string>>,
  expected: { returnTo: string; now: Date },
): ReturnCheck {
  if (fields["openid.mode"] === "cancel") return { ok: false, problem: "cancelled" };
  if (fields["openid.return_to"] !== expected.returnTo) return { ok: false, problem: "wrong-return-to" };
  const nonce = fields["openid.response_nonce"] ?? "";
  if (!nonceIsFresh(nonce, expected.now)) return { ok: false, problem: "stale-nonce" };
  return { ok: true, nonce };
}

/** A response nonce starts with its UTC time (OpenID 2.0 section 10.1); fresh within the window. */
export function nonceIsFresh(nonce: string, now: Date): boolean {
  const time = NONCE_TIME.exec(nonce)?.[1];
  if (!time) return false;
  const age = now.getTime() - Date.parse(time);
  return age <= NONCE_MAX_AGE_MS && age >= -NONCE_MAX_AHEAD_MS;
}

/**
 * The `openid.*` fields of a return's query, the only ones checked and sent back to the provider;
 * undefined when one is repeated (which of two values was signed would be a guess).
 */
export function openIdFields(query: URLSearchParams): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const [name, value] of query) {
    if (!name.startsWith("openid.")) continue;
    if (name in fields) return undefined;
    fields[name] = value;
  }
  return fields;
}
