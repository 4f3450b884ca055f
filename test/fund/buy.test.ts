import { createHash } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formToken } from "../../src/fund/web-session.js";
import { proxyHeaderV1 } from "../support/proxy-header.js";
import { readMoney, type SeededShop } from "../support/seed-purchases.js";
import { type FundBrowser, type FundFixture, startFundFixture } from "./fund-fixture.js";

// Buying on the funding page (reference 3.1 "Web flow") over real HTTP against PostgreSQL and the
// simulator: the begin's rules, the order opened for the web, the return settled once.

const DOLLAR = 1_000_000_000n;
let nextPlayer = 76_561_198_000_001_000n;
const newPlayer = () => {
  nextPlayer += 1n;
  return nextPlayer.toString();
};

describe("the funding page: buying", () => {
  let f: FundFixture;
  beforeAll(async () => {
    f = await startFundFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const pageOf = (shop: SeededShop) => `/fund/${encodeURIComponent(shop.campaignKey)}`;

  async function signedIn(shop: SeededShop, steamid = newPlayer()) {
    const browser = f.browser();
    expect((await browser.signIn(shop.campaignKey, steamid)).status).toBe(303);
    return { browser, steamid };
  }

  /** The hidden fields of the page's first offer form (formToken, offerId, requestId). */
  async function offerForm(browser: FundBrowser, shop: SeededShop): Promise<Record<string, string>> {
    const forms = await browser.forms(pageOf(shop));
    const form = forms.get(`${pageOf(shop)}/purchases`)?.[0];
    expect(form, "the page offers something to buy").toBeDefined();
    return form ?? {};
  }

  async function bought(shop: SeededShop, steamid?: string) {
    const { browser, steamid: player } = await signedIn(shop, steamid);
    const form = await offerForm(browser, shop);
    const answer = await browser.post(`${pageOf(shop)}/purchases`, form);
    expect(answer.status, answer.text).toBe(303);
    const to = new URL(answer.location ?? "");
    const returnUrl = new URL(to.searchParams.get("returnurl") ?? "");
    const purchaseId = /\/purchases\/([^/]+)\/return$/.exec(returnUrl.pathname)?.[1] ?? "";
    const purchase = await f.db.purchase.findUniqueOrThrow({ where: { id: purchaseId } });
    return { browser, player, form, to, returnUrl: returnUrl.href, purchase, orderId: purchase.orderId.toString() };
  }

  const stateOf = async (id: string) => (await f.db.purchase.findUniqueOrThrow({ where: { id } })).state;

  it("opens a web order for the signed-in player at the stored price, and sends the browser to Steam's approval page", async () => {
    const shop = await f.shop({ offer: { priceNanos: 5n * DOLLAR, creditNanos: 4n * DOLLAR } });
    const { to, returnUrl, purchase, player, orderId } = await bought(shop);
    expect(to.origin).toBe(new URL(f.sim.url).origin);
    expect(returnUrl).toBe(`${f.publicUrl}${pageOf(shop)}/purchases/${purchase.id}/return`);
    expect(purchase).toMatchObject({
      channel: "WEB",
      state: "INITIATED",
      playerId: player,
      priceNanos: 5n * DOLLAR,
      creditNanos: 4n * DOLLAR,
    });
    expect(await f.sim.control.getOrder(orderId)).toMatchObject({ steamid: player, status: "Init" });
    const [initTxn] = (await f.sim.control.listCalls({ call: "InitTxn" })).filter(
      (call) => call.params.orderid === orderId,
    );
    expect(initTxn?.params).toMatchObject({ usersession: "web", ipaddress: "127.0.0.1" });
    // The credit is reserved under the outstanding limit, as for a game's begin.
    expect((await readMoney(f.db, shop)).reservedNanos).toBe(4n * DOLLAR);
  });

  it("credits an approved order once, however often the browser comes back (reload, two tabs)", async () => {
    const shop = await f.shop({ offer: { priceNanos: 3n * DOLLAR, creditNanos: 3n * DOLLAR } });
    const { browser, returnUrl, purchase, orderId } = await bought(shop);
    await f.sim.control.approveWebOrder(orderId);
    const tabs = await Promise.all([browser.get(returnUrl), browser.get(returnUrl), browser.get(returnUrl)]);
    for (const tab of tabs) {
      expect(tab.status).toBe(200);
      expect(tab.text).toMatch(/data-state="(CREDITED|AUTHORIZED)"/);
    }
    const reload = await browser.get(returnUrl);
    expect(reload.text).toContain('data-state="CREDITED"');
    expect(reload.text).toContain("Thank you!");
    expect(reload.text).toContain("Balance: $3.00");
    expect(await stateOf(purchase.id)).toBe("CREDITED");
    expect((await readMoney(f.db, shop)).ledger).toEqual([{ purchaseId: purchase.id, amountNanos: 3n * DOLLAR }]);
    expect((await f.sim.control.getOrder(orderId))?.status).toBe("Succeeded");
  });

  it("cancels a declined order and credits nothing", async () => {
    const shop = await f.shop();
    const { browser, returnUrl, purchase, orderId } = await bought(shop);
    await f.sim.control.declineWebOrder(orderId);
    const back = await browser.get(returnUrl);
    expect(back.text).toContain('data-state="CANCELLED"');
    expect(await stateOf(purchase.id)).toBe("CANCELLED");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, ledger: [] });
  });

  it("leaves an order not approved yet as it is, with a way back to Steam's approval page", async () => {
    const shop = await f.shop();
    const { browser, returnUrl, purchase, to } = await bought(shop);
    const back = await browser.get(returnUrl);
    expect(back.status).toBe(200);
    expect(back.text).toContain('data-state="INITIATED"');
    expect(back.text).toContain(`href="${to.href.replaceAll("&", "&amp;")}"`);
    expect(await stateOf(purchase.id)).toBe("INITIATED");
  });

  it("never finalizes an abandoned order: a return after the abandon window shows it, nothing credited", async () => {
    const shop = await f.shop();
    const { browser, returnUrl, purchase, orderId } = await bought(shop);
    // The player approved on Steam but did not come back in time (Valve: abandon, never finalize).
    await f.sim.control.approveWebOrder(orderId);
    await f.sweep(new Date(Date.now() + 60 * 60_000));
    expect(await stateOf(purchase.id)).toBe("ABANDONED");
    const back = await browser.get(returnUrl);
    expect(back.status).toBe(200);
    expect(back.text).toContain('data-state="ABANDONED"');
    expect(await stateOf(purchase.id)).toBe("ABANDONED");
    expect((await f.sim.control.getOrder(orderId))?.status).toBe("Approved");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, ledger: [] });
  });

  it("shows a purchase only to the session of the player who made it", async () => {
    const shop = await f.shop();
    const { returnUrl } = await bought(shop);
    expect((await f.browser().get(returnUrl)).status).toBe(404);
    const { browser: other } = await signedIn(shop);
    expect((await other.get(returnUrl)).status).toBe(404);
    expect((await other.get(`${pageOf(shop)}/purchases/not-a-uuid/return`)).status).toBe(404);
  });

  it("opens one order for a double submit of one form (its requestId)", async () => {
    const shop = await f.shop();
    const { browser } = await signedIn(shop);
    const form = await offerForm(browser, shop);
    const answers = await Promise.all([
      browser.post(`${pageOf(shop)}/purchases`, form),
      browser.post(`${pageOf(shop)}/purchases`, form),
    ]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    expect(answers[0]?.location).toBe(answers[1]?.location);
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(1);
    // Again later (the back button and submit): the same order still.
    const later = await browser.post(`${pageOf(shop)}/purchases`, form);
    expect(later.location).toBe(answers[0]?.location);
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(1);
  });

  it("opens nothing for a form without its session's token, from another origin, or before signing in", async () => {
    const shop = await f.shop();
    const { browser } = await signedIn(shop);
    const form = await offerForm(browser, shop);
    const post = (fields: Record<string, string>, origin?: string | null) =>
      browser.post(`${pageOf(shop)}/purchases`, fields, origin === undefined ? {} : { origin });
    expect((await post({ ...form, formToken: "" })).status).toBe(403);
    expect((await post({ offerId: form.offerId ?? "", requestId: form.requestId ?? "" })).status).toBe(403);
    expect((await post({ ...form, formToken: `${form.formToken?.slice(0, -2)}AA` })).status).toBe(403);
    expect((await post(form, "https://evil.example")).status).toBe(403);
    expect((await post(form, null)).status).toBe(403);
    const stranger = f.browser();
    expect((await stranger.post(`${pageOf(shop)}/purchases`, form)).status).toBe(403);
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
  });

  it("opens nothing when web funding is off", async () => {
    const shop = await f.shop();
    const { browser } = await signedIn(shop);
    const form = await offerForm(browser, shop);
    await f.db.campaign.update({ where: { id: shop.campaignId }, data: { webFundingEnabled: false } });
    const answer = await browser.post(`${pageOf(shop)}/purchases`, form);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain("Funding from the web is turned off");
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
  });

  it("refuses before any order with the begin's reasons, in words", async () => {
    const shop = await f.shop();
    const { browser } = await signedIn(shop);
    const form = await offerForm(browser, shop);
    // Turned away between the page and the submit: every rule of begin holds for the web.
    await f.db.offer.update({ where: { id: shop.offerId }, data: { active: false } });
    const inactive = await browser.post(`${pageOf(shop)}/purchases`, form);
    expect(inactive.status).toBe(400);
    expect(inactive.text).toContain("That offer is no longer on sale.");
    await f.db.offer.update({ where: { id: shop.offerId }, data: { active: true } });
    await f.db.distributorLink.update({ where: { id: shop.linkId }, data: { outstandingLimitNanos: 0n } });
    const limited = await browser.post(`${pageOf(shop)}/purchases`, { ...form, requestId: crypto.randomUUID() });
    expect(limited.status).toBe(400);
    expect(limited.text).toContain("Funding is paused: the campaign has taken as much as it can");
    await f.db.campaign.update({ where: { id: shop.campaignId }, data: { state: "REVOKED" } });
    const revoked = await browser.post(`${pageOf(shop)}/purchases`, { ...form, requestId: crypto.randomUUID() });
    expect(revoked.text).toContain("campaign has not been verified");
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
    const initTxns = await f.sim.control.listCalls({ call: "InitTxn" });
    expect(initTxns.filter((call) => call.params.appid === String(shop.appId))).toEqual([]);
  });
});

describe("the funding page: rate limits", () => {
  let f: FundFixture;
  beforeAll(async () => {
    f = await startFundFixture({ RATE_LIMIT_PER_ADDRESS: "30", RATE_LIMIT_BEGIN_PER_CAMPAIGN: "1" });
  });
  afterAll(async () => {
    await f?.close();
  });

  it("limits purchases per campaign as begin does, and requests per address as public calls, with 429 before any work", async () => {
    const shop = await f.shop();
    const browser = f.browser();
    await browser.signIn(shop.campaignKey, newPlayer());
    const page = `/fund/${encodeURIComponent(shop.campaignKey)}`;
    const form = (await browser.forms(page)).get(`${page}/purchases`)?.[0] ?? {};
    expect((await browser.post(`${page}/purchases`, form)).status).toBe(303);
    const second = await browser.post(`${page}/purchases`, { ...form, requestId: crypto.randomUUID() });
    expect(second.status).toBe(429);
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(1);
    let status = 200;
    for (let i = 0; i < 40 && status !== 429; i += 1) status = (await browser.get(page)).status;
    expect(status).toBe(429);
  });
});

describe("the funding page: a client with only IPv6", () => {
  // A proxy on 127.0.0.2 (PROXY_PROTOCOL_FROM) tells the service the client's real address, here
  // an IPv6 one (docs/deploy.md "Replicas"); Steam takes web orders for IPv4 addresses only.
  const PROXY = "127.0.0.2";
  let f: FundFixture;
  beforeAll(async () => {
    f = await startFundFixture({ PROXY_PROTOCOL_FROM: PROXY });
  });
  afterAll(async () => {
    await f?.close();
  });

  it("is told so before any order, and no order is opened", async () => {
    const shop = await f.shop();
    // A signed-in session, written as a sign-in leaves it.
    const token = "t".repeat(43);
    await f.db.webSession.create({
      data: {
        id: crypto.randomUUID(),
        tokenHash: createHash("sha256").update(token).digest("hex"),
        steamId: newPlayer(),
        expireTime: new Date(Date.now() + 60_000),
      },
    });
    const path = `/fund/${encodeURIComponent(shop.campaignKey)}`;
    const viaProxy = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({ port: f.server.port, host: "127.0.0.1", localAddress: PROXY });
        let received = "";
        socket.on("data", (chunk) => {
          received += chunk;
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(received));
        socket.write(`${proxyHeaderV1("2001:db8::7")}${request}`);
      });
    const page = await viaProxy(
      `GET ${path} HTTP/1.1\r\nHost: x\r\nCookie: fund_session=${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(page).toContain("this one is IPv6");
    expect(page).not.toContain("Buy for");
    const form = new URLSearchParams({
      formToken: formToken(token),
      offerId: shop.offerId,
      requestId: crypto.randomUUID(),
    });
    const body = form.toString();
    const answer = await viaProxy(
      `POST ${path}/purchases HTTP/1.1\r\nHost: x\r\nOrigin: ${f.publicUrl}\r\nCookie: fund_session=${token}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain("IPv4 needed");
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
  });
});
