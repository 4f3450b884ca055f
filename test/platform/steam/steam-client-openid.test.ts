// Contract: sign in through Steam with the real client (reference 11). The sign-in URL the
// simulator's provider accepts, and verifyOpenIdAssertion: local refusals before any call, then
// check_authentication, valid once.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamClient } from "../../../src/platform/steam/create-steam-client.js";
import type { OpenIdAssertion } from "../../../src/sim/steam/steam-sim-control.js";
import { type SteamFixture, startSteamFixture } from "./steam-fixture.js";

let fixture: SteamFixture;
let client: SteamClient;

beforeAll(async () => {
  fixture = await startSteamFixture();
  // A loaded machine must not turn a slow answer into "unavailable" here; timeouts are tested apart.
  client = fixture.client({ timeoutMs: 5000 });
});
afterAll(() => fixture.close());
beforeEach(() => fixture.seed());

const PLAYER = "76561198000000042";
const REALM = "https://fund.example.com";
const RETURN_TO = `${REALM}/fund/ck_abc/sign-in/return?state=s1`;

const assertion = (steamid = PLAYER): Promise<OpenIdAssertion> =>
  fixture.sim.control.makeOpenIdAssertion({ steamid, returnTo: RETURN_TO });

const checks = async () => (await fixture.sim.control.listCalls({ call: "check_authentication" })).length;

describe("openIdSignInUrl", () => {
  it("is STEAM_OPENID_URL with an OpenID 2.0 checkid_setup for identifier_select", () => {
    const url = client.openIdSignInUrl({ returnTo: RETURN_TO, realm: REALM });
    expect(`${url.origin}${url.pathname}`).toBe(fixture.sim.openIdUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      "openid.ns": "http://specs.openid.net/auth/2.0",
      "openid.mode": "checkid_setup",
      "openid.claimed_id": "http://specs.openid.net/auth/2.0/identifier_select",
      "openid.identity": "http://specs.openid.net/auth/2.0/identifier_select",
      "openid.return_to": RETURN_TO,
      "openid.realm": REALM,
    });
  });

  it("walks through the provider's sign-in page to an assertion the client finds valid", async () => {
    const url = client.openIdSignInUrl({ returnTo: RETURN_TO, realm: REALM });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    // The form as the browser would send it: its hidden fields, the Steam id, Sign in.
    const html = await page.text();
    const form = new URLSearchParams(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
        ([, name = "", value = ""]): [string, string] => [
          name,
          value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
        ],
      ),
    );
    form.set("steamid", PLAYER);
    form.set("action", "sign-in");
    const back = await fetch(url.origin + url.pathname, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
      redirect: "manual",
    });
    const returned = new URL(back.headers.get("location") ?? "");
    expect(`${returned.origin}${returned.pathname}`).toBe(`${REALM}/fund/ck_abc/sign-in/return`);
    const verdict = await client.verifyOpenIdAssertion(Object.fromEntries(returned.searchParams));
    expect(verdict).toMatchObject({ kind: "ok", value: { valid: true, steamid: PLAYER, returnTo: RETURN_TO } });
  });
});

describe("verifyOpenIdAssertion", () => {
  it("is valid once: the Steam id from claimed_id, return_to and the nonce as signed", async () => {
    const { fields } = await assertion();
    expect(await client.verifyOpenIdAssertion(fields)).toEqual({
      kind: "ok",
      value: { valid: true, steamid: PLAYER, returnTo: RETURN_TO, responseNonce: fields["openid.response_nonce"] },
    });
    // A replay: the provider vouches for an assertion once.
    expect(await client.verifyOpenIdAssertion(fields)).toEqual({
      kind: "ok",
      value: { valid: false, cancelled: false, reason: "the provider did not vouch for the assertion" },
    });
  });

  it("forwards every openid.* field as a form with mode=check_authentication, and nothing else", async () => {
    const { fields } = await assertion();
    await fixture.sim.control.clearCalls();
    await client.verifyOpenIdAssertion({ ...fields, state: "s1", "x.other": "y" });
    const [call] = await fixture.sim.control.listCalls({ call: "check_authentication" });
    expect(call).toMatchObject({ httpMethod: "POST", path: "/openid/login" });
    expect(call?.params).toEqual({ ...fields, "openid.mode": "check_authentication" });
  });

  it("is not valid when the provider refuses a field changed after signing (another player's id)", async () => {
    const { fields } = await assertion();
    const other = "https://steamcommunity.com/openid/id/76561198000000099";
    const forged = { ...fields, "openid.claimed_id": other, "openid.identity": other };
    expect(await client.verifyOpenIdAssertion(forged)).toMatchObject({ kind: "ok", value: { valid: false } });
    expect(await checks()).toBe(1);
  });

  it.each<[string, (fields: Record<string, string>) => Record<string, string>, string]>([
    [
      "another provider's op_endpoint",
      (f) => ({ ...f, "openid.op_endpoint": "https://evil.example/openid/login" }),
      "op_endpoint",
    ],
    [
      "Steam's own op_endpoint while STEAM_OPENID_URL is the simulator",
      (f) => ({ ...f, "openid.op_endpoint": "https://steamcommunity.com/openid/login" }),
      "op_endpoint",
    ],
    ["no op_endpoint", ({ "openid.op_endpoint": _, ...f }) => f, "op_endpoint"],
    ["OpenID 1.1", (f) => ({ ...f, "openid.ns": "http://openid.net/signon/1.1" }), "OpenID 2.0"],
    ["a setup_needed answer", (f) => ({ ...f, "openid.mode": "setup_needed" }), "positive assertion"],
    [
      "a claimed_id other than identity",
      (f) => ({ ...f, "openid.identity": "https://steamcommunity.com/openid/id/76561198000000099" }),
      "Steam identifier",
    ],
    [
      "a claimed_id not Steam's",
      (f) => ({
        ...f,
        "openid.claimed_id": "https://evil.example/id/76561198000000042",
        "openid.identity": "https://evil.example/id/76561198000000042",
      }),
      "Steam identifier",
    ],
    [
      "a claimed_id over http",
      (f) => ({
        ...f,
        "openid.claimed_id": `http://steamcommunity.com/openid/id/${PLAYER}`,
        "openid.identity": `http://steamcommunity.com/openid/id/${PLAYER}`,
      }),
      "Steam identifier",
    ],
    [
      "claimed_id left unsigned",
      (f) => ({ ...f, "openid.signed": "signed,op_endpoint,identity,return_to,response_nonce,assoc_handle" }),
      "unsigned",
    ],
    [
      "return_to left unsigned",
      (f) => ({ ...f, "openid.signed": "signed,op_endpoint,claimed_id,identity,response_nonce,assoc_handle" }),
      "unsigned",
    ],
    ["no signature", ({ "openid.sig": _, ...f }) => f, "unsigned"],
  ])("refuses %s without asking the provider", async (_name, edit, reason) => {
    const { fields } = await assertion();
    const verdict = await client.verifyOpenIdAssertion(edit(fields));
    expect(verdict).toEqual({
      kind: "ok",
      value: { valid: false, cancelled: false, reason: expect.stringContaining(reason) },
    });
    expect(await checks()).toBe(0);
    // The assertion as issued was not spent by the refusal.
    expect(await client.verifyOpenIdAssertion(fields)).toMatchObject({ kind: "ok", value: { valid: true } });
  });

  it("refuses a Steam id that is not 17 digits, though the provider signed it", async () => {
    const { fields } = await assertion("7656119800000004");
    expect(await client.verifyOpenIdAssertion(fields)).toMatchObject({ kind: "ok", value: { valid: false } });
    expect(await checks()).toBe(0);
  });

  it("reads a cancelled sign-in as cancelled, not as a forgery", async () => {
    const verdict = await client.verifyOpenIdAssertion({
      "openid.ns": "http://specs.openid.net/auth/2.0",
      "openid.mode": "cancel",
    });
    expect(verdict).toMatchObject({ kind: "ok", value: { valid: false, cancelled: true } });
    expect(await checks()).toBe(0);
  });

  it.each([
    ["http5xx", "HTTP 500"],
    ["http429", "HTTP 429"],
    ["reset", ""],
    ["timeout", "timeout after 250 ms"],
  ] as const)("is unavailable when the provider fails (%s), and never retried", async (kind, cause) => {
    const { fields } = await assertion();
    const retrying = fixture.client({ readRetries: 3, retryBackoffMs: 1, timeoutMs: 250 });
    await fixture.sim.control.injectFault({ call: "check_authentication", kind });
    const verdict = await retrying.verifyOpenIdAssertion(fields);
    expect(verdict).toMatchObject({ kind: "unavailable", cause: expect.stringContaining(cause) });
    expect(await checks()).toBe(1);
  });
});
