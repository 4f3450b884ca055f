// The simulator's OpenID 2.0 provider (reference 11), on the wire: the sign-in page a
// checkid_setup request shows, the redirect its form answers, and check_authentication.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamSimulator } from "../../../src/sim/steam/start-steam-simulator.js";
import { KEY, seed, startSim, wireClient } from "./sim-wire.js";

let sim: SteamSimulator;
let http: ReturnType<typeof wireClient>;

beforeAll(async () => {
  sim = await startSim();
  http = wireClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => seed(sim));

const NS = "http://specs.openid.net/auth/2.0";
const SELECT = "http://specs.openid.net/auth/2.0/identifier_select";
const RETURN_TO = "http://127.0.0.1:8080/fund/ck_abc/sign-in/return?state=s1";
const PLAYER = "76561198000000042";

const checkidSetup = (overrides: Record<string, string | undefined> = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries({
      "openid.ns": NS,
      "openid.mode": "checkid_setup",
      "openid.claimed_id": SELECT,
      "openid.identity": SELECT,
      "openid.return_to": RETURN_TO,
      "openid.realm": "http://127.0.0.1:8080",
      ...overrides,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/** The sign-in form's POST, answered without following the redirect. */
async function submit(fields: Record<string, string>): Promise<Response> {
  return fetch(`${sim.url}/openid/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

const check = (fields: Record<string, string>) =>
  http.postForm("/openid/login", new URLSearchParams({ ...fields, "openid.mode": "check_authentication" }).toString());

async function signIn(steamid = PLAYER): Promise<Record<string, string>> {
  const res = await submit({ ...checkidSetup(), steamid, action: "sign-in" });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("location") ?? "");
  return Object.fromEntries([...back.searchParams].filter(([name]) => name.startsWith("openid.")));
}

describe("the sign-in page (GET /openid/login, checkid_setup)", () => {
  it("shows a labelled Steam id field, prefilled, and Sign in and Cancel buttons posting back to /openid/login", async () => {
    const res = await http.get("/openid/login", checkidSetup());
    expect(res.status).toBe(200);
    expect(res.contentType).toBe("text/html; charset=utf-8");
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(res.text).toContain('<form method="post" action="/openid/login">');
    expect(res.text).toContain('<label for="steamid">Steam id</label>');
    expect(res.text).toMatch(/<input id="steamid" name="steamid"[^>]* value="76561198000000001"/);
    expect(res.text).toContain('<button class="primary" type="submit" name="action" value="sign-in">Sign in</button>');
    expect(res.text).toMatch(/<button [^>]*name="action" value="cancel"[^>]*>Cancel<\/button>/);
    // The request rides on to the POST; the page runs nothing and loads nothing.
    expect(res.text).toContain(`name="openid.return_to" value="${RETURN_TO.replace("&", "&#38;")}"`);
    expect(res.text).not.toContain("<script");
  });

  it("is served under a policy that runs no script and cannot be framed", async () => {
    const res = await fetch(`${sim.url}/openid/login?${new URLSearchParams(checkidSetup())}`);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it("takes a return_to under a wildcard realm, or no realm (return_to is the realm)", async () => {
    const wildcard = checkidSetup({
      "openid.return_to": "https://fund.example.com/fund/k/sign-in/return",
      "openid.realm": "https://*.example.com/",
    });
    expect((await http.get("/openid/login", wildcard)).status).toBe(200);
    expect((await http.get("/openid/login", checkidSetup({ "openid.realm": undefined }))).status).toBe(200);
    const below = checkidSetup({ "openid.realm": "http://127.0.0.1:8080/fund/" });
    expect((await http.get("/openid/login", below)).status).toBe(200);
  });

  it.each<[string, Record<string, string | undefined>, string]>([
    ["no openid.ns", { "openid.ns": undefined }, "openid.ns must be"],
    ["OpenID 1.1", { "openid.ns": "http://openid.net/signon/1.1" }, "openid.ns must be"],
    ["checkid_immediate", { "openid.mode": "checkid_immediate" }, "openid.mode must be checkid_setup"],
    ["a claimed_id of its own", { "openid.claimed_id": "https://steamcommunity.com/openid/id/1" }, "claimed_id"],
    ["no identity", { "openid.identity": undefined }, "openid.identity must be"],
    ["no return_to", { "openid.return_to": undefined }, "return_to must be an absolute"],
    ["a relative return_to", { "openid.return_to": "/fund/k/sign-in/return" }, "return_to must be an absolute"],
    ["a javascript: return_to", { "openid.return_to": "javascript:alert(1)" }, "return_to must be an absolute"],
    ["a realm on another host", { "openid.realm": "http://evil.example" }, "does not match openid.realm"],
    ["a realm on another port", { "openid.realm": "http://127.0.0.1:9090" }, "does not match openid.realm"],
    ["a realm on another scheme", { "openid.realm": "https://127.0.0.1:8080" }, "does not match openid.realm"],
    ["a realm path return_to is not under", { "openid.realm": "http://127.0.0.1:8080/funding" }, "does not match"],
    ["a realm with a fragment", { "openid.realm": "http://127.0.0.1:8080/#x" }, "does not match openid.realm"],
  ])("answers a 400 page saying what is wrong for %s", async (_name, overrides, message) => {
    const res = await http.get("/openid/login", checkidSetup(overrides));
    expect(res.status).toBe(400);
    expect(res.contentType).toBe("text/html; charset=utf-8");
    expect(res.text).toContain(message);
    expect(res.text).not.toContain("<form");
  });
});

describe("the sign-in form's POST", () => {
  it("sends the browser back to return_to, its own query kept, with a signed positive assertion", async () => {
    const res = await submit({ ...checkidSetup(), steamid: PLAYER, action: "sign-in" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe("http://127.0.0.1:8080/fund/ck_abc/sign-in/return");
    expect(back.searchParams.get("state")).toBe("s1");
    const fields = Object.fromEntries([...back.searchParams].filter(([name]) => name.startsWith("openid.")));
    expect(fields).toEqual({
      "openid.ns": NS,
      "openid.mode": "id_res",
      "openid.op_endpoint": sim.openIdUrl,
      "openid.claimed_id": `https://steamcommunity.com/openid/id/${PLAYER}`,
      "openid.identity": `https://steamcommunity.com/openid/id/${PLAYER}`,
      "openid.return_to": RETURN_TO,
      "openid.response_nonce": expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ[A-Za-z0-9_-]+$/),
      "openid.assoc_handle": expect.any(String),
      "openid.signed": "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle",
      // HMAC-SHA256: 32 bytes, base64.
      "openid.sig": expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
    });
    expect(sim.openIdUrl).toBe(`${sim.url}/openid/login`);
  });

  it("signs in a player Steam did not know, with a wallet to buy with", async () => {
    await signIn(PLAYER);
    const info = await http.get("/ISteamMicroTxn/GetUserInfo/v2/", { key: KEY, appid: "480", steamid: PLAYER });
    expect(info.json()).toEqual({
      response: { result: "OK", params: { state: "", country: "US", currency: "USD", status: "Active" } },
    });
  });

  it("gives every assertion a nonce of its own", async () => {
    const [first, second] = [await signIn(), await signIn()];
    expect(first?.["openid.response_nonce"]).not.toBe(second?.["openid.response_nonce"]);
  });

  it("sends the browser back with mode=cancel and nothing signed when the player cancels", async () => {
    const res = await submit({ ...checkidSetup(), steamid: "", action: "cancel" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location") ?? "");
    expect([...back.searchParams]).toEqual([
      ["state", "s1"],
      ["openid.ns", NS],
      ["openid.mode", "cancel"],
    ]);
  });

  it.each(["", "7656119800000004", "765611980000000421", "7656119800000004x", " 76561198000000042 1"])(
    "shows the form again, the field marked invalid, for the Steam id %j",
    async (steamid) => {
      const res = await submit({ ...checkidSetup(), steamid, action: "sign-in" });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toContain('aria-invalid="true"');
      expect(page).toContain('role="alert"');
      expect(page).toContain("A Steam id is 17 digits");
      expect(res.headers.get("location")).toBeNull();
    },
  );

  it("refuses a POST whose request is not a valid checkid_setup, or that names no action", async () => {
    const relative = await submit({
      ...checkidSetup({ "openid.return_to": "/x" }),
      steamid: PLAYER,
      action: "sign-in",
    });
    expect(relative.status).toBe(400);
    expect(relative.headers.get("location")).toBeNull();
    expect((await submit({ ...checkidSetup(), steamid: PLAYER })).status).toBe(400);
  });
});

describe("check_authentication (POST /openid/login)", () => {
  it("vouches for an assertion once, in key-value form, and never again (a replay)", async () => {
    const fields = await signIn();
    const first = await check(fields);
    expect(first.status).toBe(200);
    expect(first.contentType).toBe("text/plain; charset=utf-8");
    expect(first.text).toBe(`ns:${NS}\nis_valid:true\n`);
    expect((await check(fields)).text).toBe(`ns:${NS}\nis_valid:false\n`);
  });

  it.each([
    "openid.op_endpoint",
    "openid.claimed_id",
    "openid.identity",
    "openid.return_to",
    "openid.response_nonce",
    "openid.assoc_handle",
    "openid.signed",
    "openid.sig",
  ])("refuses the assertion with %s changed, and still vouches for it as issued", async (name) => {
    const fields = await signIn();
    const changed = {
      "openid.op_endpoint": "https://steamcommunity.com/openid/login",
      "openid.claimed_id": "https://steamcommunity.com/openid/id/76561198000000099",
      "openid.identity": "https://steamcommunity.com/openid/id/76561198000000099",
      "openid.return_to": "http://127.0.0.1:8080/fund/ck_other/sign-in/return?state=s1",
      "openid.response_nonce": "2026-01-01T00:00:00Zforged",
      "openid.assoc_handle": "1",
      "openid.signed": "signed,op_endpoint,identity,return_to,response_nonce,assoc_handle",
      "openid.sig": Buffer.alloc(32).toString("base64"),
    }[name];
    expect((await check({ ...fields, [name]: changed ?? "" })).text).toBe(`ns:${NS}\nis_valid:false\n`);
    expect((await check(fields)).text).toBe(`ns:${NS}\nis_valid:true\n`);
  });

  it("refuses an assertion without a signature or a signed nonce", async () => {
    const { "openid.sig": _sig, ...unsigned } = await signIn();
    expect((await check(unsigned)).text).toContain("is_valid:false");
    expect((await check({})).text).toContain("is_valid:false");
  });

  it("is a Steam call: logged with its fields, and faults apply", async () => {
    const fields = await signIn();
    await sim.control.clearCalls();
    await sim.control.injectFault({ call: "check_authentication", kind: "http5xx", status: 503 });
    expect((await check(fields)).status).toBe(503);
    // The failed call changed nothing: the assertion is still good once.
    expect((await check(fields)).text).toContain("is_valid:true");
    const calls = await sim.control.listCalls({ call: "check_authentication" });
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      httpMethod: "POST",
      path: "/openid/login",
      params: { "openid.mode": "check_authentication", "openid.sig": fields["openid.sig"] },
    });
  });

  it("loses the reply after vouching (resetAfterCommit): the assertion is then spent", async () => {
    const fields = await signIn();
    await sim.control.injectFault({ call: "check_authentication", kind: "resetAfterCommit" });
    await expect(check(fields)).rejects.toThrow();
    expect((await check(fields)).text).toContain("is_valid:false");
  });
});

describe("assertions made through the control API", () => {
  it("are the page's assertions: signed alike, vouched for once, with the browser's return URL", async () => {
    const made = await sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo: RETURN_TO });
    expect(made.fields).toMatchObject({
      "openid.mode": "id_res",
      "openid.op_endpoint": sim.openIdUrl,
      "openid.claimed_id": `https://steamcommunity.com/openid/id/${PLAYER}`,
      "openid.return_to": RETURN_TO,
    });
    const back = new URL(made.returnUrl);
    expect(back.searchParams.get("state")).toBe("s1");
    expect(back.searchParams.get("openid.sig")).toBe(made.fields["openid.sig"]);
    expect((await check(made.fields)).text).toContain("is_valid:true");
    expect((await check(made.fields)).text).toContain("is_valid:false");
  });

  it("are refused for a return_to that is not an absolute http(s) URL", async () => {
    const res = await fetch(`${sim.url}/_sim/openid/assertions`, {
      method: "POST",
      body: JSON.stringify({ steamid: PLAYER, returnTo: "javascript:alert(1)" }),
    });
    expect(res.status).toBe(400);
  });
});
