import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

const CENT = DOLLAR / 100n;

describe("POST /v1/public/purchases:begin", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  it("opens one platform order at the stored price, for the ticket's player, in the player's language", async () => {
    const shop = await f.shop({
      offer: { priceNanos: 499n * CENT, creditNanos: 300n * CENT, displayName: "A month of servers" },
    });
    const player = await f.player(shop);
    await f.sim.control.clearCalls();
    const res = await f.begin({
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
      language: "schinese",
      // A request's price is never read (spec 1.5).
      price: { currencyCode: "USD", units: "0", nanos: 10_000_000 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({ purchase: expect.any(String), orderId: expect.stringMatching(/^[1-9]\d*$/) });
    expect(BigInt(res.body.orderId) < 2n ** 63n).toBe(true);
    const calls = await f.sim.control.listCalls();
    expect(calls.map((call) => call.call)).toEqual(["AuthenticateUserTicket", "InitTxn"]);
    expect(calls[1]?.iface).toBe("live");
    expect(calls[1]?.params).toMatchObject({
      orderid: res.body.orderId,
      steamid: player.steamid,
      appid: String(shop.appId),
      language: "zh",
      currency: "USD",
      "amount[0]": "499",
      "qty[0]": "1",
      "description[0]": "A month of servers",
      ipaddress: "127.0.0.1",
    });
    const order = await f.sim.control.getOrder(res.body.orderId);
    expect(order?.status).toBe("Init");
    const row = await f.db.purchase.findUniqueOrThrow({ where: { id: res.body.purchase } });
    expect(row).toMatchObject({
      state: "INITIATED",
      playerId: player.steamid,
      // Recorded when InitTxn opened the order: a begin repeated with a requestId answers from it.
      transId: order?.transid,
      initTxnEndTime: expect.any(Date),
      language: "zh",
      priceNanos: 499n * CENT,
      creditNanos: 300n * CENT,
    });
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 300n * CENT });
  });

  it.each([
    [undefined, "en"],
    ["", "en"],
    ["fr", "fr"],
    ["brazilian", "pt"],
    ["klingon", "en"],
  ])("sends language %j to the platform as %s", async (language, expected) => {
    const shop = await f.shop();
    const player = await f.player(shop);
    await f.sim.control.clearCalls();
    const res = await f.begin({
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
      language,
    });
    expect(res.status).toBe(200);
    expect((await f.sim.control.listCalls({ call: "InitTxn" }))[0]?.params.language).toBe(expected);
  });

  it.each([
    ["missing campaignKey", { offerId: "o", authTicket: "AB" }],
    ["missing offerId", { campaignKey: "k", authTicket: "AB" }],
    ["missing authTicket", { campaignKey: "k", offerId: "o" }],
    ["requestId of 129 characters", { campaignKey: "k", offerId: "o", authTicket: "AB", requestId: "r".repeat(129) }],
  ])("refuses %s with 400 code 3 before any platform call", async (_, body) => {
    await f.sim.control.clearCalls();
    const res = await f.begin(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 3 });
    expect(await f.sim.control.listCalls()).toEqual([]);
  });

  it("accepts a requestId of exactly 128 characters", async () => {
    const shop = await f.shop();
    const player = await f.player(shop);
    const res = await f.begin({
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
      requestId: "r".repeat(128),
    });
    expect(res.status).toBe(200);
  });

  it("answers 404 code 5 for an unknown campaign key without calling the platform", async () => {
    await f.sim.control.clearCalls();
    const res = await f.begin({ campaignKey: "nope", offerId: "o", authTicket: "AB" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 5 });
    expect(await f.sim.control.listCalls()).toEqual([]);
  });

  it.each([
    ["not verified", { state: "NEEDS_REVIEW" as const }, {}, "CAMPAIGN_NOT_VERIFIED"],
    ["declined", { state: "DECLINED" as const }, {}, "CAMPAIGN_NOT_VERIFIED"],
    ["revoked", { state: "REVOKED" as const }, {}, "CAMPAIGN_NOT_VERIFIED"],
    ["not transferred", { ready: false }, {}, "CAMPAIGN_NOT_READY"],
    ["offer off sale", {}, { active: false }, "OFFER_INACTIVE"],
    ["key not working", { linkState: "CREDENTIAL_INVALID" as const }, {}, "PUBLISHER_UNAVAILABLE"],
    [
      "limit one cent short",
      { outstandingNanos: 50n * DOLLAR, reservedNanos: 47n * DOLLAR + 1n * CENT, outstandingLimitNanos: 100n * DOLLAR },
      { creditNanos: 3n * DOLLAR },
      "PUBLISHER_LIMIT_REACHED",
    ],
  ])("refuses before any platform call: %s", async (_, campaign, offer, reason) => {
    const shop = await f.shop({ ...campaign, offer });
    const player = await f.player(shop);
    await f.sim.control.clearCalls();
    const res = await f.begin(
      { campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket, requestId: "r1" },
      // Spec 5.1: a credential on a public call is not read and changes nothing.
      { authorization: "Bearer not-a-key" },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      code: 9,
      message: expect.any(String),
      details: expect.arrayContaining([
        expect.objectContaining({
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason,
          domain: "campaign.encore.v1",
        }),
        expect.objectContaining({
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: [{ type: reason, subject: shop.campaignKey, description: expect.any(String) }],
        }),
      ]),
    });
    expect(await f.sim.control.listCalls()).toEqual([]);
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
    expect(await f.db.purchaseRequest.count({ where: { campaignId: shop.campaignId } })).toBe(0);
  });

  it("refuses an offer id the campaign does not have as OFFER_INACTIVE", async () => {
    const shop = await f.shop();
    const other = await f.shop();
    await f.sim.control.clearCalls();
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: other.offerId, authTicket: "AB" });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ reason: "OFFER_INACTIVE" });
    expect(await f.sim.control.listCalls()).toEqual([]);
  });

  it("allows a purchase that lands exactly on the outstanding limit and refuses one cent more", async () => {
    const exact = await f.shop({
      outstandingNanos: 50n * DOLLAR,
      reservedNanos: 47n * DOLLAR,
      outstandingLimitNanos: 100n * DOLLAR,
      offer: { creditNanos: 3n * DOLLAR },
    });
    const player = await f.player(exact);
    const ok = await f.begin({ campaignKey: exact.campaignKey, offerId: exact.offerId, authTicket: player.ticket });
    expect(ok.status).toBe(200);
    expect(await readMoney(f.db, exact)).toMatchObject({ reservedNanos: 50n * DOLLAR });
    const again = await f.begin({ campaignKey: exact.campaignKey, offerId: exact.offerId, authTicket: player.ticket });
    expect(again.status).toBe(400);
    expect(again.body.details[0]).toMatchObject({ reason: "PUBLISHER_LIMIT_REACHED" });
  });

  it("reserves nothing and applies no limit on a sandbox link", async () => {
    const shop = await f.shop({ sandbox: true, outstandingLimitNanos: 0n });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, outstandingNanos: 0n });
    expect((await f.sim.control.getOrder(res.body.orderId, { sandbox: true }))?.status).toBe("Init");
    expect(await f.sim.control.getOrder(res.body.orderId)).toBeUndefined();
  });

  it("answers 401 PLAYER_NOT_AUTHENTICATED when the platform does not vouch, or the ticket is for another app", async () => {
    const shop = await f.shop();
    const elsewhere = await f.shop();
    await f.sim.control.addPublisherKey(shop.publisherKey, [shop.appId, elsewhere.appId]);
    const otherApp = await f.player(elsewhere);
    for (const authTicket of ["DEADBEEF", otherApp.ticket]) {
      await f.sim.control.clearCalls();
      const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        code: 16,
        details: [expect.objectContaining({ reason: "PLAYER_NOT_AUTHENTICATED" })],
      });
      expect((await f.sim.control.listCalls()).map((call) => call.call)).toEqual(["AuthenticateUserTicket"]);
    }
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n });
  });

  it("marks the link STATE_CREDENTIAL_INVALID when the platform rejects the studio's key", async () => {
    const shop = await f.shop();
    const player = await f.player(shop);
    await f.sim.control.injectFault({ call: "AuthenticateUserTicket", kind: "rejectKey" });
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ reason: "PUBLISHER_UNAVAILABLE" });
    expect((await readMoney(f.db, shop)).linkState).toBe("CREDENTIAL_INVALID");
  });

  it("answers ORDER_REFUSED, releases the reservation and keeps no purchase when the platform refuses the order", async () => {
    const shop = await f.shop();
    const player = await f.player(shop);
    await f.sim.control.addPlayer({ steamid: player.steamid, status: "Locked" });
    const res = await f.begin({
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
      requestId: "locked-1",
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, outstandingNanos: 0n });
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
  });

  it("marks the link when InitTxn rejects the key, and refuses the order", async () => {
    const shop = await f.shop();
    const player = await f.player(shop);
    await f.sim.control.injectFault({ call: "InitTxn", kind: "rejectKey" });
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, linkState: "CREDENTIAL_INVALID" });
  });

  it.each(["timeout", "http5xx", "reset"] as const)(
    "answers 503 code 14 when the ticket check meets a %s, with nothing written",
    async (kind) => {
      const shop = await f.shop();
      const player = await f.player(shop);
      await f.sim.control.injectFault({ call: "AuthenticateUserTicket", kind, times: 3, status: 502 });
      const res = await f.begin({
        campaignKey: shop.campaignKey,
        offerId: shop.offerId,
        authTicket: player.ticket,
        requestId: `t-${kind}`,
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14 });
      expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(0);
      expect(await f.db.purchaseRequest.count({ where: { campaignId: shop.campaignId } })).toBe(0);
      expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n });
      await f.sim.control.clearFaults();
    },
  );
});
