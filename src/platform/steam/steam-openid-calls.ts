// Sign in through Steam: OpenID 2.0 against STEAM_OPENID_URL (reference 11). The browser is sent
// to the provider with checkid_setup and comes back with a signed assertion, which is worth
// nothing until the provider itself vouches for it (check_authentication); the redirect's
// parameters alone are never trusted.

import { z } from "zod";
import { ASSERTION_SIGNED_FIELDS } from "../../domain/openid-assertion.js";
import { decodePayload } from "./steam-envelope.js";
import type { SteamHttp } from "./steam-http.js";
import type { OpenIdVerdict, PlatformResult, SteamPlatform } from "./steam-platform.js";

type OpenIdCalls = Pick<SteamPlatform, "openIdSignInUrl" | "verifyOpenIdAssertion">;

const OPENID_NS = "http://specs.openid.net/auth/2.0";
const IDENTIFIER_SELECT = "http://specs.openid.net/auth/2.0/identifier_select";

/** Steam's claimed identifier (reference 11); the same against Steam and the simulator. */
const STEAM_CLAIMED_ID = /^https:\/\/steamcommunity\.com\/openid\/id\/(\d{17})$/;

// OpenID 2.0 section 11.4.2.2: the direct answer to check_authentication, in key-value form.
const checkAnswer = z.object({ ns: z.literal(OPENID_NS), is_valid: z.enum(["true", "false"]) });

export function createOpenIdCalls(options: { readonly http: SteamHttp; readonly openIdUrl: string }): OpenIdCalls {
  const { http, openIdUrl } = options;
  const endpoint = new URL(openIdUrl).href;

  return {
    openIdSignInUrl({ returnTo, realm }) {
      const url = new URL(openIdUrl);
      // Steam serves identifier_select only: it picks the account, the site learns which.
      url.searchParams.set("openid.ns", OPENID_NS);
      url.searchParams.set("openid.mode", "checkid_setup");
      url.searchParams.set("openid.claimed_id", IDENTIFIER_SELECT);
      url.searchParams.set("openid.identity", IDENTIFIER_SELECT);
      url.searchParams.set("openid.return_to", returnTo);
      url.searchParams.set("openid.realm", realm);
      return url;
    },

    async verifyOpenIdAssertion(fields) {
      const openid = Object.entries(fields).filter(([name]) => name.startsWith("openid."));
      const get = (name: string) => fields[`openid.${name}`] ?? "";
      const refusal = localRefusal(get, endpoint);
      if (refusal !== undefined) return ok(refusal);
      const form = new URLSearchParams(openid);
      form.set("openid.mode", "check_authentication");
      const answer = await http.send({
        call: "check_authentication",
        url: new URL(openIdUrl),
        method: "POST",
        form,
        answer: "text",
      });
      if (answer.kind !== "ok") return answer;
      const checked = decodePayload(parseKeyValue(String(answer.value)), checkAnswer);
      if (checked.kind !== "ok") return checked;
      if (checked.value.is_valid !== "true") return ok(invalid("the provider did not vouch for the assertion"));
      return ok({
        valid: true,
        steamid: STEAM_CLAIMED_ID.exec(get("claimed_id"))?.[1] ?? "",
        returnTo: get("return_to"),
        responseNonce: get("response_nonce"),
      });
    },
  };
}

/** Why an assertion is refused before the provider is asked, or undefined when it may be asked. */
function localRefusal(get: (name: string) => string, endpoint: string): OpenIdVerdict | undefined {
  if (get("mode") === "cancel") return { valid: false, cancelled: true, reason: "the player cancelled the sign-in" };
  if (get("ns") !== OPENID_NS) return invalid("not an OpenID 2.0 answer");
  if (get("mode") !== "id_res") return invalid("not a positive assertion");
  if (!sameUrl(get("op_endpoint"), endpoint)) return invalid("op_endpoint is not STEAM_OPENID_URL");
  if (get("claimed_id") !== get("identity") || !STEAM_CLAIMED_ID.test(get("claimed_id")))
    return invalid("claimed_id is not a Steam identifier");
  const signed = new Set(get("signed").split(","));
  if (ASSERTION_SIGNED_FIELDS.some((name) => !signed.has(name)) || get("sig") === "")
    return invalid("required fields unsigned");
  return undefined;
}

function invalid(reason: string): OpenIdVerdict {
  return { valid: false, cancelled: false, reason };
}

function ok(verdict: OpenIdVerdict): PlatformResult<OpenIdVerdict> {
  return { kind: "ok", value: verdict };
}

function sameUrl(text: string, endpoint: string): boolean {
  return URL.canParse(text) && new URL(text).href === endpoint;
}

/** OpenID 2.0 section 4.1.1: `key:value` lines; the key ends at the first colon. */
function parseKeyValue(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split("\n")
      .filter((line) => line.indexOf(":") > 0)
      .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1)]),
  );
}
