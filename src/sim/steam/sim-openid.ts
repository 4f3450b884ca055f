// The simulator's OpenID 2.0 provider, as Steam runs it (reference 11): stateless (no
// association; check_authentication verifies), identifier_select only, claimed_id in Steam's
// form. Assertions are signed with HMAC-SHA256 over the key-value form of the signed fields
// (OpenID 2.0 section 6.1) with a secret only the simulator holds.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ASSERTION_SIGNED_FIELDS } from "../../domain/openid-assertion.js";
import { nowSeconds, type SimState } from "./sim-state.js";

export const OPENID_NS = "http://specs.openid.net/auth/2.0";
export const IDENTIFIER_SELECT = "http://specs.openid.net/auth/2.0/identifier_select";
export const OPENID_PATH = "/openid/login";

/** The fields Steam signs, in its order. */
const SIGNED = ["signed", ...ASSERTION_SIGNED_FIELDS];

// Steam answers every assertion with the same handle: it keeps no association with the site.
const ASSOC_HANDLE = "1234567890";

export function opEndpoint(state: SimState): string {
  return `${state.origin}${OPENID_PATH}`;
}

export function claimedId(steamid: string): string {
  return `https://steamcommunity.com/openid/id/${steamid}`;
}

/** The `openid.*` fields of a positive assertion for the player, to send to returnTo. */
export function makeAssertion(state: SimState, input: { steamid: string; returnTo: string }): Record<string, string> {
  const fields: Record<string, string> = {
    "openid.ns": OPENID_NS,
    "openid.mode": "id_res",
    "openid.op_endpoint": opEndpoint(state),
    "openid.claimed_id": claimedId(input.steamid),
    "openid.identity": claimedId(input.steamid),
    "openid.return_to": input.returnTo,
    // OpenID 2.0 section 10.1: a UTC timestamp to the second, then a unique part.
    "openid.response_nonce": `${nowSeconds()}${randomBytes(9).toString("base64url")}`,
    "openid.assoc_handle": ASSOC_HANDLE,
    "openid.signed": SIGNED.join(","),
  };
  return { ...fields, "openid.sig": sign(state, fields, SIGNED) };
}

/**
 * check_authentication (OpenID 2.0 section 11.4.2): valid when the signature matches the fields as
 * sent and this response_nonce was never vouched for before (section 11.5: a replay is refused).
 */
export function checkAuthentication(state: SimState, params: URLSearchParams): boolean {
  const fields = Object.fromEntries(params);
  const signed = (fields["openid.signed"] ?? "").split(",");
  const nonce = fields["openid.response_nonce"] ?? "";
  if (!signed.includes("response_nonce") || nonce === "") return false;
  const sent = Buffer.from(fields["openid.sig"] ?? "", "base64");
  const expected = Buffer.from(sign(state, fields, signed), "base64");
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return false;
  if (state.checkedNonces.has(nonce)) return false;
  state.checkedNonces.add(nonce);
  return true;
}

/** Where the provider sends the browser: return_to with the fields added to its query. */
export function returnToWith(returnTo: string | URL, fields: Iterable<readonly [string, string]>): string {
  const url = new URL(returnTo);
  for (const [name, value] of fields) url.searchParams.set(name, value);
  return url.href;
}

/** The direct answer to check_authentication, in key-value form (OpenID 2.0 section 4.1.1). */
export function keyValueAnswer(isValid: boolean): string {
  return `ns:${OPENID_NS}\nis_valid:${isValid}\n`;
}

function sign(state: SimState, fields: Readonly<Record<string, string>>, names: readonly string[]): string {
  const form = names.map((name) => `${name}:${fields[`openid.${name}`] ?? ""}\n`).join("");
  return createHmac("sha256", state.openIdSecret).update(form).digest("base64");
}
