import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FundFixture, startFundFixture } from "./fund-fixture.js";

// Signing in on the funding page through Steam's OpenID provider (the simulator's), over real
// HTTP against PostgreSQL: the return is trusted only once the provider vouched for it, for this
// browser's own sign-in, and once.

const PLAYER = "76561198000000101";
const OTHER = "76561198000000102";

describe("the funding page: sign in through Steam", () => {
  let f: FundFixture;
  beforeAll(async () => {
    f = await startFundFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const pageOf = (key: string) => `/fund/${encodeURIComponent(key)}`;
  const sessionRow = (cookie: string | undefined) =>
    f.db.webSession.findUnique({
      where: {
        tokenHash: createHash("sha256")
          .update(cookie ?? "")
          .digest("hex"),
      },
    });

  it("sends the browser to the provider with checkid_setup and a return_to bound to a new HttpOnly session", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    const started = await browser.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    expect(started.status).toBe(303);
    const to = new URL(started.location ?? "");
    expect(`${to.origin}${to.pathname}`).toBe(f.sim.openIdUrl);
    expect(to.searchParams.get("openid.mode")).toBe("checkid_setup");
    expect(to.searchParams.get("openid.realm")).toBe(`${f.publicUrl}/`);
    const returnTo = new URL(to.searchParams.get("openid.return_to") ?? "");
    expect(`${returnTo.origin}${returnTo.pathname}`).toBe(`${f.publicUrl}${pageOf(shop.campaignKey)}/sign-in/return`);
    const cookie = started.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^fund_session=[A-Za-z0-9_-]+; Path=\/fund; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    // Only the token's hash is kept, with the sign-in's state and no player yet.
    const row = await sessionRow(browser.sessionCookie());
    expect(row).toMatchObject({ signInState: returnTo.searchParams.get("state"), steamId: null });
    expect(JSON.stringify(row)).not.toContain(browser.sessionCookie());
  });

  it("signs in once the provider vouched: the session holds the Steam id under a new token, and the page says so", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    const started = await browser.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    const before = browser.sessionCookie();
    const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";
    const assertion = await f.sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo });
    const back = await browser.get(assertion.returnUrl);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`${f.publicUrl}${pageOf(shop.campaignKey)}`);
    expect(browser.sessionCookie()).not.toBe(before);
    expect(await sessionRow(before)).toBeNull();
    expect(await sessionRow(browser.sessionCookie())).toMatchObject({ steamId: PLAYER, signInState: null });
    expect((await browser.get(pageOf(shop.campaignKey))).text).toContain(
      `Signed in through Steam as player ${PLAYER}.`,
    );

    // The same return again (a reload, or the URL replayed): the sign-in is over; nothing changes.
    const again = await browser.get(assertion.returnUrl);
    expect(again.status).toBe(400);
    expect(await sessionRow(browser.sessionCookie())).toMatchObject({ steamId: PLAYER });
  });

  it("refuses a forged assertion: a signed field changed, or the signature", async () => {
    const shop = await f.shop();
    for (const forge of [
      (fields: Record<string, string>) => ({
        ...fields,
        "openid.claimed_id": `https://steamcommunity.com/openid/id/${OTHER}`,
        "openid.identity": `https://steamcommunity.com/openid/id/${OTHER}`,
      }),
      (fields: Record<string, string>) => ({ ...fields, "openid.sig": Buffer.alloc(32, 1).toString("base64") }),
    ]) {
      const browser = f.browser();
      const started = await browser.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
      const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";
      const { fields } = await f.sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo });
      const forged = new URL(returnTo);
      for (const [name, value] of Object.entries(forge(fields))) forged.searchParams.set(name, value);
      const back = await browser.get(forged.href);
      expect(back.status).toBe(400);
      expect(back.text).toContain("Steam did not confirm this sign-in.");
      expect(await sessionRow(browser.sessionCookie())).toMatchObject({ steamId: null });
    }
  });

  it("refuses an assertion from another provider (op_endpoint) or for another return_to", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    const started = await browser.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";

    const { fields } = await f.sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo });
    const otherProvider = new URL(returnTo);
    for (const [name, value] of Object.entries(fields)) otherProvider.searchParams.set(name, value);
    otherProvider.searchParams.set("openid.op_endpoint", "https://openid.example.com/login");
    expect((await browser.get(otherProvider.href)).status).toBe(400);

    // Signed for another page of ours (another campaign's return, same state), delivered here.
    const elsewhere = returnTo.replace(pageOf(shop.campaignKey), pageOf("ck_other"));
    const misdirected = await f.sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo: elsewhere });
    const delivered = new URL(returnTo);
    for (const [name, value] of Object.entries(misdirected.fields)) delivered.searchParams.set(name, value);
    const back = await browser.get(delivered.href);
    expect(back.status).toBe(400);
    expect(back.text).toContain("could not be accepted");
    expect(await sessionRow(browser.sessionCookie())).toMatchObject({ steamId: null });
  });

  it("refuses a return in a browser that did not start the sign-in (no cookie, or another session's)", async () => {
    const shop = await f.shop();
    const victim = f.browser();
    const started = await victim.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";
    const assertion = await f.sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo });

    const noCookie = f.browser();
    const first = await noCookie.get(assertion.returnUrl);
    expect(first.status).toBe(400);
    expect(first.text).toContain("not started in this browser");

    const attacker = f.browser();
    await attacker.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    expect((await attacker.get(assertion.returnUrl)).status).toBe(400);
    expect(await sessionRow(attacker.sessionCookie())).toMatchObject({ steamId: null });

    // The assertion was never sent to the provider by those: the browser that started it still signs in.
    expect((await victim.get(assertion.returnUrl)).status).toBe(303);
    expect(await sessionRow(victim.sessionCookie())).toMatchObject({ steamId: PLAYER });
  });

  it("refuses a replayed assertion: of two returns racing with one assertion, one signs in", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    const started = await browser.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";
    const assertion = await f.sim.control.makeOpenIdAssertion({ steamid: PLAYER, returnTo });
    const cookie = browser.sessionCookie();
    const tabs = [f.browser(), f.browser(), f.browser()];
    for (const tab of tabs) tab.setSessionCookie(cookie);
    const answers = await Promise.all(tabs.map((tab) => tab.get(assertion.returnUrl)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400, 400]);
    // The losers were refused by the nonce already taken, before the provider was asked again.
    const refused = answers.filter((a) => a.status === 400).map((a) => a.text);
    expect(refused.every((text) => text.includes("already used") || text.includes("is over"))).toBe(true);
    expect(refused.some((text) => text.includes("already used"))).toBe(true);
  });

  it("says so when the player cancels on Steam, and stores nothing", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    const started = await browser.post(`${pageOf(shop.campaignKey)}/sign-in`, {});
    const returnTo = new URL(started.location ?? "").searchParams.get("openid.return_to") ?? "";
    const cancel = new URL(returnTo);
    cancel.searchParams.set("openid.ns", "http://specs.openid.net/auth/2.0");
    cancel.searchParams.set("openid.mode", "cancel");
    const back = await browser.get(cancel.href);
    expect(back.status).toBe(400);
    expect(back.text).toContain("You cancelled signing in on Steam.");
    expect(await sessionRow(browser.sessionCookie())).toMatchObject({ steamId: null });
  });

  it("starts no sign-in from another site's form (Origin), for an unknown campaign, or with web funding off", async () => {
    const on = await f.shop();
    const off = await f.shop({ webFunding: false });
    const before = await f.db.webSession.count();
    const browser = f.browser();
    expect(
      (await browser.post(`${pageOf(on.campaignKey)}/sign-in`, {}, { origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await browser.post(`${pageOf(on.campaignKey)}/sign-in`, {}, { origin: null })).status).toBe(403);
    expect((await browser.post(`${pageOf("ck_nobody")}/sign-in`, {})).status).toBe(404);
    const refused = await browser.post(`${pageOf(off.campaignKey)}/sign-in`, {});
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Funding from the web is turned off");
    expect(await f.db.webSession.count()).toBe(before);
    expect(browser.sessionCookie()).toBeUndefined();
  });

  it("signs out: the session is deleted and its cookie cleared", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    await browser.signIn(shop.campaignKey, PLAYER);
    const cookie = browser.sessionCookie();
    const forms = await browser.forms(pageOf(shop.campaignKey));
    const signOut = forms.get(`${pageOf(shop.campaignKey)}/sign-out`)?.[0] ?? {};
    // Without the form's token (another site's form): refused, still signed in.
    expect((await browser.post(`${pageOf(shop.campaignKey)}/sign-out`, {})).status).toBe(403);
    expect(await sessionRow(cookie)).not.toBeNull();
    const out = await browser.post(`${pageOf(shop.campaignKey)}/sign-out`, signOut);
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^fund_session=; Path=\/fund; Max-Age=0/);
    expect(await sessionRow(cookie)).toBeNull();
  });
});

describe("the funding page over TLS", () => {
  let f: FundFixture;
  beforeAll(async () => {
    f = await startFundFixture({ PUBLIC_URL: "https://fund.example.com" });
  });
  afterAll(async () => {
    await f?.close();
  });

  it("marks the session cookie Secure when PUBLIC_URL is https", async () => {
    const shop = await f.shop();
    const started = await f
      .browser()
      .post(`${f.server.baseUrl}/fund/${shop.campaignKey}/sign-in`, {}, { origin: "https://fund.example.com" });
    expect(started.status).toBe(303);
    expect(started.headers.get("set-cookie")).toMatch(/; Secure$/);
  });
});
