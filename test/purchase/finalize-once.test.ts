import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney, type SeededShop } from "../support/seed-purchases.js";
import { type RestResult, startTestServer, type TestServer } from "../support/test-server.js";
import { pausedAfterQuery } from "./paused-platform.js";
import { minutesFromNow, type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// DESIGN 3: the platform expects one FinalizeTxn per order. Completes racing each
// other, a complete racing the sweeper, and completes on two replicas over one database each
// capture an order once, counted in the simulator's call log, and credit it once. A FinalizeTxn
// nobody answered keeps its lease until it runs out (reference 1.7: QueryTxn before anything else).
const STEAM_TIMEOUT_MS = "5000";
// The simulator holds each FinalizeTxn this long before it answers, so every racing caller
// has asked QueryTxn (and seen the order Approved) while the first capture is still under way.
const HELD_MS = 400;

describe("one FinalizeTxn per order", () => {
  let f: PurchaseFixture;
  let replica: TestServer;
  beforeAll(async () => {
    f = await startPurchaseFixture({ STEAM_TIMEOUT_MS });
    // A second instance of the service over the same database and the same platform.
    replica = await startTestServer({
      db: f.server.db,
      env: { STEAM_API_URL: f.sim.url, STEAM_STORE_URL: f.sim.storeUrl, STEAM_TIMEOUT_MS, LOG_LEVEL: "silent" },
    });
  });
  afterAll(async () => {
    await replica?.close();
    await f?.close();
  });

  interface Approved {
    shop: SeededShop;
    purchase: string;
    orderId: string;
  }

  async function approvedPurchase(): Promise<Approved> {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    const { purchase, orderId } = res.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    return { shop, purchase, orderId };
  }

  function complete(server: TestServer, order: Approved): Promise<RestResult> {
    return server.rest("POST", "/v1/public/purchases:complete", {
      campaignKey: order.shop.campaignKey,
      purchase: order.purchase,
      orderId: order.orderId,
      authorized: true,
    });
  }

  async function finalizeCalls(orderId: string): Promise<number> {
    const calls = await f.sim.control.listCalls({ call: "FinalizeTxn" });
    return calls.filter((call) => call.params.orderid === orderId).length;
  }

  async function untilFinalizeLogged(orderId: string) {
    while ((await finalizeCalls(orderId)) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Captured once, credited once: one FinalizeTxn, the order Succeeded, one ledger entry. */
  async function expectSettledOnce(order: Approved) {
    expect(await finalizeCalls(order.orderId)).toBe(1);
    expect((await f.sim.control.getOrder(order.orderId))?.status).toBe("Succeeded");
    const again = await complete(f.server, order);
    expect(again.body.state).toBe("STATE_CREDITED");
    expect(await finalizeCalls(order.orderId)).toBe(1);
    expect(await readMoney(f.db, order.shop)).toMatchObject({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      balanceNanos: 3n * DOLLAR,
      ledger: [{ purchaseId: order.purchase, amountNanos: 3n * DOLLAR }],
    });
  }

  function expectAnsweredPaid(results: RestResult[]) {
    for (const res of results) {
      expect(res.status).toBe(200);
      // Whoever did not capture answers the state it found (spec 3.1: the game polls on).
      expect(["STATE_AUTHORIZED", "STATE_CREDITED"]).toContain(res.body.state);
    }
    expect(results.some((res) => res.body.state === "STATE_CREDITED")).toBe(true);
  }

  it("captures once when many completes of the same order race on one instance", async () => {
    const orders = [await approvedPurchase(), await approvedPurchase(), await approvedPurchase()];
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "latency", ms: HELD_MS, times: orders.length });
    const results = await Promise.all(
      orders.map((order) => Promise.all(Array.from({ length: 6 }, () => complete(f.server, order)))),
    );
    for (const [index, order] of orders.entries()) {
      expectAnsweredPaid(results[index] ?? []);
      await expectSettledOnce(order);
    }
  });

  it("captures once when the sweeper meets a complete whose FinalizeTxn is under way", async () => {
    const order = await approvedPurchase();
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "latency", ms: 2000 });
    const completing = complete(f.server, order);
    await untilFinalizeLogged(order.orderId);
    // The sweeper finds the order Approved at the platform while the complete captures it.
    const report = await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    expect(report).toMatchObject({ looked: 1, settled: 1 });
    expect(await finalizeCalls(order.orderId)).toBe(1);
    expectAnsweredPaid([await completing]);
    await expectSettledOnce(order);
  });

  it("captures once when completes race on two instances over one database", async () => {
    const orders = [await approvedPurchase(), await approvedPurchase(), await approvedPurchase()];
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "latency", ms: HELD_MS, times: orders.length });
    const results = await Promise.all(
      orders.map((order) =>
        Promise.all([f.server, replica, f.server, replica, f.server, replica].map((server) => complete(server, order))),
      ),
    );
    for (const [index, order] of orders.entries()) {
      expectAnsweredPaid(results[index] ?? []);
      await expectSettledOnce(order);
    }
  });

  it("keeps the lease of a FinalizeTxn whose reply was lost: a sweeper that read Approved before does not capture again", async () => {
    const order = await approvedPurchase();
    await f.sim.control.clearCalls();
    // The sweeper has read the order Approved and is about to capture it.
    const paused = pausedAfterQuery(f.steam);
    const sweeping = f.sweeper({ now: minutesFromNow(2) }, undefined, paused.platform).runOnce();
    await paused.queried;
    // Meanwhile a complete captures it, and Steam's reply never arrives.
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "resetAfterCommit" });
    expect((await complete(f.server, order)).body.state).toBe("STATE_AUTHORIZED");
    expect((await f.sim.control.getOrder(order.orderId))?.status).toBe("Succeeded");
    paused.release();
    expect(await sweeping).toMatchObject({ looked: 1, settled: 1 });
    expect(await finalizeCalls(order.orderId)).toBe(1);
    // The next complete asks QueryTxn, which shows the capture: credited, no second FinalizeTxn.
    await expectSettledOnce(order);
  });

  it("leaves an order whose FinalizeTxn went unanswered to QueryTxn until the lease runs out, then captures it", async () => {
    const order = await approvedPurchase();
    await f.sim.control.clearCalls();
    // The FinalizeTxn never reached Steam, but the caller cannot know that.
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "reset" });
    expect((await complete(f.server, order)).body.state).toBe("STATE_AUTHORIZED");
    // A retried complete, the other replica and the sweeper read Approved and leave it alone.
    expect((await complete(f.server, order)).body.state).toBe("STATE_AUTHORIZED");
    expect((await complete(replica, order)).body.state).toBe("STATE_AUTHORIZED");
    expect(await f.sweeper({ now: minutesFromNow(2) }).runOnce()).toMatchObject({ looked: 1, settled: 1 });
    expect(await finalizeCalls(order.orderId)).toBe(1);
    expect((await f.sim.control.getOrder(order.orderId))?.status).toBe("Approved");
    // The lease runs out (2 x STEAM_TIMEOUT_MS): the next complete captures and credits it.
    await f.endFinalizeLease(order.purchase);
    expect((await complete(f.server, order)).body.state).toBe("STATE_CREDITED");
    expect(await finalizeCalls(order.orderId)).toBe(2);
    expect((await f.sim.control.getOrder(order.orderId))?.status).toBe("Succeeded");
    expect(await readMoney(f.db, order.shop)).toMatchObject({
      balanceNanos: 3n * DOLLAR,
      ledger: [{ purchaseId: order.purchase, amountNanos: 3n * DOLLAR }],
    });
  });

  it("leaves a capture under way to its holder, and takes it over once its lease ran out (a holder that died)", async () => {
    const order = await approvedPurchase();
    await f.sim.control.clearCalls();
    // Another replica holds the capture lease and has not answered.
    await f.db.$executeRaw`
      UPDATE purchases SET state = 'AUTHORIZED', finalize_until = now() + interval '1 minute' WHERE id = ${order.purchase}`;
    const held = await complete(f.server, order);
    expect(held.body.state).toBe("STATE_AUTHORIZED");
    expect(await finalizeCalls(order.orderId)).toBe(0);
    // It died: its lease runs out, and the next complete captures and credits the order.
    await f.endFinalizeLease(order.purchase);
    expect((await complete(replica, order)).body.state).toBe("STATE_CREDITED");
    await expectSettledOnce(order);
  });
});
