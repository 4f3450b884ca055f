import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { onPostgres } from "../support/test-database.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// Spec 4.5: begin with a requestId is retried reusing it; spec 4.3 rule 3 and 3.1's last row.
describe("purchases:begin repeated with one requestId", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  async function setUp() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const begin = (requestId: string, ticket = player.ticket) =>
      f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: ticket, requestId });
    return { shop, player, begin };
  }

  it("gives the same player the same purchase and orderId, with one platform order", async () => {
    const { shop, begin } = await setUp();
    await f.sim.control.clearCalls();
    const first = await begin("req-1");
    const again = await begin("req-1");
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toHaveLength(1);
    // The repeat is matched to its player through the ticket (DESIGN 3).
    expect(await f.sim.control.listCalls({ call: "AuthenticateUserTicket" })).toHaveLength(2);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
    // The begin recorded the order InitTxn opened: the repeats answer from the row and ask the
    // platform nothing.
    const row = await f.db.purchase.findUniqueOrThrow({ where: { id: first.body.purchase } });
    expect(row.transId).toBe((await f.sim.control.getOrder(first.body.orderId))?.transid);
    expect((await begin("req-1")).body).toEqual(first.body);
    expect(await f.sim.control.listCalls({ call: "QueryTxn" })).toEqual([]);
  });

  it("answers ORDER_REFUSED, without a second order, to a repeat made while the first attempt's InitTxn was being refused", async () => {
    const { shop, player, begin } = await setUp();
    await f.sim.control.clearCalls();
    await f.sim.control.addPlayer({ steamid: player.steamid, status: "Locked" });
    await f.sim.control.injectFault({ call: "InitTxn", kind: "latency", ms: 500 });
    const first = begin("req-11");
    // The first attempt has written its purchase and is waiting on InitTxn.
    while (!(await f.db.purchaseRequest.findFirst({ where: { campaignId: shop.campaignId, requestId: "req-11" } }))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const again = await begin("req-11");
    expect((await first).body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
    expect(again.body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
    // It awaited the first attempt's InitTxn on this replica and was answered as it was, without
    // asking the platform (no fresh attempt: one ticket check each).
    expect(await f.sim.control.listCalls({ call: "QueryTxn" })).toEqual([]);
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toHaveLength(1);
    expect(await f.sim.control.listCalls({ call: "AuthenticateUserTicket" })).toHaveLength(2);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n });
  });

  it("answers 409 code 6 to another player using the same requestId", async () => {
    const { shop, begin } = await setUp();
    expect((await begin("req-2")).status).toBe(200);
    const intruder = await f.player(shop);
    const res = await begin("req-2", intruder.ticket);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 6 });
    expect(await f.db.purchase.count({ where: { campaignId: shop.campaignId } })).toBe(1);
  });

  it("keys requestIds per campaign", async () => {
    const a = await setUp();
    const b = await setUp();
    const first = await a.begin("shared");
    const second = await b.begin("shared");
    expect(second.status).toBe(200);
    expect(second.body.orderId).not.toBe(first.body.orderId);
  });

  it("answers ORDER_REFUSED again, without a second order, when the first attempt was refused", async () => {
    const { player, begin } = await setUp();
    await f.sim.control.addPlayer({ steamid: player.steamid, status: "Locked" });
    expect((await begin("req-3")).body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
    await f.sim.control.addPlayer({ steamid: player.steamid, status: "Active" });
    await f.sim.control.clearCalls();
    const again = await begin("req-3");
    expect(again.status).toBe(400);
    expect(again.body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toEqual([]);
  });

  it("answers ORDER_REFUSED once the first attempt was cancelled", async () => {
    const { shop, begin } = await setUp();
    const first = await begin("req-4");
    await f.sim.control.declineOrder(first.body.orderId);
    const done = await f.complete({
      campaignKey: shop.campaignKey,
      purchase: first.body.purchase,
      orderId: first.body.orderId,
      authorized: false,
    });
    expect(done.body.state).toBe("STATE_CANCELLED");
    const again = await begin("req-4");
    expect(again.status).toBe(400);
    expect(again.body.details[0]).toMatchObject({ reason: "ORDER_REFUSED" });
  });

  it("answers the same purchase once it was credited, so complete answers CREDITED", async () => {
    const { shop, begin } = await setUp();
    const first = await begin("req-5");
    await f.sim.control.approveOrder(first.body.orderId);
    await f.complete({
      campaignKey: shop.campaignKey,
      purchase: first.body.purchase,
      orderId: first.body.orderId,
      authorized: true,
    });
    const again = await begin("req-5");
    expect(again.body).toEqual(first.body);
    const done = await f.complete({
      campaignKey: shop.campaignKey,
      purchase: again.body.purchase,
      orderId: again.body.orderId,
      authorized: true,
    });
    expect(done.body.state).toBe("STATE_CREDITED");
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  it("carries on with the one order when InitTxn opened it but its reply was lost", async () => {
    const { shop, begin } = await setUp();
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "InitTxn", kind: "resetAfterCommit" });
    const first = await begin("req-6");
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: 14 });
    const again = await begin("req-6");
    expect(again.status).toBe(200);
    const initCalls = await f.sim.control.listCalls({ call: "InitTxn" });
    expect(initCalls).toHaveLength(1);
    expect(again.body.orderId).toBe(initCalls[0]?.params.orderid);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
  });

  it.each(["timeout", "http5xx"] as const)(
    "after an InitTxn %s that never reached the platform, answers 503 and the retry opens a fresh order",
    async (kind) => {
      const { shop, begin } = await setUp();
      await f.sim.control.injectFault({ call: "InitTxn", kind, status: 500 });
      const first = await begin(`req-7-${kind}`);
      expect(first.status).toBe(503);
      expect(first.body).toMatchObject({ code: 14 });
      // Nothing credited or lost: the attempt is INITIATED with its reservation until it is
      // known whether the platform has the order.
      const [pending] = await f.db.purchase.findMany({ where: { campaignId: shop.campaignId } });
      expect(pending).toMatchObject({ state: "INITIATED", transId: null });
      expect(await readMoney(f.db, shop)).toMatchObject({
        reservedNanos: 3n * DOLLAR,
        outstandingNanos: 0n,
        ledger: [],
      });
      const again = await begin(`req-7-${kind}`);
      expect(again.status).toBe(200);
      expect(again.body.orderId).not.toBe(pending?.orderId.toString());
      expect((await f.db.purchase.findUniqueOrThrow({ where: { id: pending?.id } })).state).toBe("FAILED");
      expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
      expect((await begin(`req-7-${kind}`)).body).toEqual(again.body);
    },
  );

  it("makes exactly one platform order for concurrent begins with one requestId", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    const { shop, begin } = await setUp();
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "InitTxn", kind: "latency", ms: 300 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => begin("race-1")));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
    expect(await f.sim.control.listCalls({ call: "InitTxn" })).toHaveLength(1);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
  });

  it("answers concurrent begins with one requestId the one purchase when it took the last of the limit", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    // Room for exactly one purchase: the others find the limit reached, but they are its retries.
    const shop = await f.shop({ outstandingLimitNanos: 3n * DOLLAR, offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        f.begin({
          campaignKey: shop.campaignKey,
          offerId: shop.offerId,
          authTicket: player.ticket,
          requestId: "edge-1",
        }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
  });
});
