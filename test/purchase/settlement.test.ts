import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { onPostgres } from "../support/test-database.js";
import { minutesFromNow, type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// Spec 3.1: the service settles an approved order on its own within a couple of minutes; DESIGN 3.
describe("settlement without the game", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  async function begun(options: Parameters<PurchaseFixture["shop"]>[0] = {}) {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR }, ...options });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    const { purchase, orderId } = res.body as { purchase: string; orderId: string };
    const complete = (authorized: boolean) =>
      f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized });
    const state = async () => (await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).state;
    return { shop, purchase, orderId, complete, state };
  }

  it("credits an approved order nobody completed, once the game had its chance (about a minute)", async () => {
    const { shop, orderId, purchase, state } = await begun();
    await f.sim.control.approveOrder(orderId);
    expect(await f.sweeper({ now: new Date() }).runOnce()).toMatchObject({ looked: 0 });
    expect(await state()).toBe("INITIATED");
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    expect(await state()).toBe("CREDITED");
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      ledger: [{ purchaseId: purchase, amountNanos: 3n * DOLLAR }],
    });
  });

  it("leaves an unapproved order open, then cancels it after the cancel age, releasing the reservation", async () => {
    const { shop, state } = await begun();
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    expect(await state()).toBe("INITIATED");
    await f.sweeper({ now: minutesFromNow(16) }).runOnce();
    expect(await state()).toBe("CANCELLED");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, ledger: [] });
  });

  it("heals a crash between FinalizeTxn and the credit: the platform says Succeeded, credit once", async () => {
    const { shop, orderId, complete, state } = await begun();
    await f.sim.control.approveOrder(orderId);
    // The process finalised, then died before its database transaction.
    const finalized = await f.steam.finalizeTxn({
      publisherKey: shop.publisherKey,
      sandbox: false,
      appid: shop.appId,
      orderid: orderId,
    });
    expect(finalized.kind).toBe("ok");
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    await f.sweeper({ now: minutesFromNow(5) }).runOnce();
    expect(await state()).toBe("CREDITED");
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  /** A begin whose InitTxn never reached the platform: answered 503, its credit still reserved. */
  async function unopenedAttempt() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    await f.sim.control.injectFault({ call: "InitTxn", kind: "http5xx", status: 502 });
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(503);
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR });
    return shop;
  }

  it("ends FAILED and releases the reservation when an unanswered InitTxn never reached the platform", async () => {
    const shop = await unopenedAttempt();
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    const [attempt] = await f.db.purchase.findMany({ where: { campaignId: shop.campaignId } });
    expect(attempt?.state).toBe("FAILED");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, outstandingNanos: 0n, ledger: [] });
  });

  it("ends FAILED on complete, nothing credited, when the platform does not know the order (spec 3.1)", async () => {
    const shop = await unopenedAttempt();
    // The begin records no transaction id, so complete has only the platform's word: no such order.
    const [attempt] = await f.db.purchase.findMany({ where: { campaignId: shop.campaignId } });
    const done = await f.complete({
      campaignKey: shop.campaignKey,
      purchase: attempt?.id,
      orderId: attempt?.orderId.toString(),
      authorized: true,
    });
    expect(done.body.state).toBe("STATE_FAILED");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 0n, outstandingNanos: 0n, ledger: [] });
  });

  it("credits an order the player approved although begin answered 503 (InitTxn reply lost)", async () => {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    await f.sim.control.clearCalls();
    await f.sim.control.injectFault({ call: "InitTxn", kind: "resetAfterCommit" });
    expect(
      (await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket })).status,
    ).toBe(503);
    const [init] = await f.sim.control.listCalls({ call: "InitTxn" });
    await f.sim.control.approveOrder(init?.params.orderid as string);
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      ledger: [expect.anything()],
    });
  });

  it("credits once with concurrent completes", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    const { shop, orderId, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => complete(true)));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(answers.filter((res) => res.body.state === "STATE_CREDITED").length).toBeGreaterThan(0);
    for (const res of answers) expect(["STATE_CREDITED", "STATE_AUTHORIZED"]).toContain(res.body.state);
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      balanceNanos: 3n * DOLLAR,
    });
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  it("credits once when complete races the sweeper and a second replica's sweeper", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    const { shop, orderId, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    const clock = { now: minutesFromNow(2) };
    const [, a, b] = await Promise.all([
      complete(true),
      f.sweeper(clock).runOnce(),
      f.sweeper(clock).runOnce(),
      complete(true),
    ]);
    // Leases keep two replicas off one purchase; whoever settles, it is credited once.
    expect(a.looked + b.looked).toBeLessThanOrEqual(1);
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      balanceNanos: 3n * DOLLAR,
    });
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  it("moves no money when it settles a sandbox purchase", async () => {
    const { shop, orderId, state } = await begun({ sandbox: true });
    await f.sim.control.approveOrder(orderId, { sandbox: true });
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    expect(await state()).toBe("CREDITED");
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 0n,
      reservedNanos: 0n,
      balanceNanos: 0n,
      ledger: [],
    });
  });

  it("sweeps on its own interval once started, and stops", async () => {
    const { orderId, state } = await begun();
    await f.sim.control.approveOrder(orderId);
    // Every sweep reads the clock first (synchronously, as it starts): the reads count sweeps.
    let sweeps = 0;
    const at = minutesFromNow(3);
    const clock = {
      get now() {
        sweeps += 1;
        return at;
      },
    };
    const intervalMs = 20;
    const sweeper = f.sweeper(clock, intervalMs);
    sweeper.start();
    while ((await state()) !== "CREDITED") await new Promise((resolve) => setTimeout(resolve, intervalMs));
    expect(sweeps).toBeGreaterThan(0);
    await sweeper.stop();
    const afterStop = sweeps;
    // A sweep still scheduled would be due at most intervalMs after stop(), before this timer,
    // and would have read the clock as it started.
    await new Promise((resolve) => setTimeout(resolve, 3 * intervalMs));
    expect(sweeps).toBe(afterStop);
  });
});
