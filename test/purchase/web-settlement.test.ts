import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SteamPlatform } from "../../src/platform/steam/steam-platform.js";
import { reconcile, replica, testClock } from "../reconciliation/reconciliation-fixture.js";
import { DOLLAR } from "../support/seed.js";
import { readMoney, type SeededShop } from "../support/seed-purchases.js";
import { onPostgres } from "../support/test-database.js";
import { pausedAfterQuery } from "./paused-platform.js";
import { minutesFromNow, type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";
import { openWebOrder } from "./web-order.js";

// docs/settlement.md "Abandoned web orders", reference 3.1 "Web flow": a web order is finalized
// only when its player comes back from Steam's approval page; one nobody came back for within
// the settlement window is abandoned (never finalized, nothing credited), even when approved.
// The game never completes a web order. A return and the abandon racing end one way, never both.
const CREDIT = 3n * DOLLAR;

describe("web orders in settlement", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture({ STEAM_TIMEOUT_MS: "5000" });
  });
  afterAll(() => f.close());

  const shop = () => f.shop({ offer: { creditNanos: CREDIT } });
  const finalizeCalls = async (orderId: string) =>
    (await f.sim.control.listCalls({ call: "FinalizeTxn" })).filter((call) => call.params.orderid === orderId);
  const unpaid = { outstandingNanos: 0n, reservedNanos: 0n, balanceNanos: 0n, ledger: [] };

  it("leaves an approved web order nobody came back for open, then abandons it unfinalized past the window", async () => {
    const s = await shop();
    const order = await openWebOrder(f, s);
    await f.sim.control.approveOrder(order.orderId);
    // The sweeper's settle-after passed: an in-game order would be finalized and credited now.
    await f.sweeper({ now: minutesFromNow(2) }).runOnce();
    expect(await order.state()).toBe("INITIATED");
    expect(await readMoney(f.db, s)).toMatchObject({ reservedNanos: CREDIT, ledger: [] });
    await f.sweeper({ now: minutesFromNow(16) }).runOnce();
    expect(await order.state()).toBe("ABANDONED");
    expect(await finalizeCalls(order.orderId)).toEqual([]);
    expect((await f.sim.control.getOrder(order.orderId))?.status).toBe("Approved");
    expect(await readMoney(f.db, s)).toMatchObject(unpaid);
  });

  it("abandons a web order left in Init past the window, releasing its reservation", async () => {
    const s = await shop();
    const order = await openWebOrder(f, s);
    await f.sweeper({ now: minutesFromNow(16) }).runOnce();
    expect(await order.state()).toBe("ABANDONED");
    expect(await readMoney(f.db, s)).toMatchObject(unpaid);
  });

  it("finalizes and credits an approved web order once when its player comes back, however often", async () => {
    const s = await shop();
    const order = await openWebOrder(f, s);
    await f.sim.control.approveOrder(order.orderId);
    expect(await order.returned()).toMatchObject({ kind: "settled", state: "CREDITED" });
    // A reload, the back button, a second tab.
    expect(await order.returned()).toMatchObject({ kind: "settled", state: "CREDITED" });
    await f.sweeper({ now: minutesFromNow(16) }).runOnce();
    expect(await order.state()).toBe("CREDITED");
    expect(await finalizeCalls(order.orderId)).toHaveLength(1);
    expect(await readMoney(f.db, s)).toMatchObject({
      outstandingNanos: CREDIT,
      reservedNanos: 0n,
      balanceNanos: CREDIT,
      ledger: [{ purchaseId: order.id, amountNanos: CREDIT }],
    });
  });

  it("cancels a web order the player declined, and leaves one still in Init open when the player comes back", async () => {
    const s = await shop();
    const waiting = await openWebOrder(f, s);
    expect(await waiting.returned()).toMatchObject({ kind: "settled", state: "INITIATED" });
    const declined = await openWebOrder(f, s);
    await f.sim.control.declineOrder(declined.orderId);
    expect(await declined.returned()).toMatchObject({ kind: "settled", state: "CANCELLED" });
    expect(await finalizeCalls(declined.orderId)).toEqual([]);
  });

  it("answers a return after the abandon with the abandon, and never finalizes", async () => {
    const s = await shop();
    const order = await openWebOrder(f, s);
    await f.sweeper({ now: minutesFromNow(16) }).runOnce();
    await f.sim.control.approveOrder(order.orderId);
    expect(await order.returned()).toMatchObject({ kind: "settled", state: "ABANDONED" });
    expect(await finalizeCalls(order.orderId)).toEqual([]);
    expect(await readMoney(f.db, s)).toMatchObject(unpaid);
  });

  it("answers the game's complete of a web purchase as for a purchase it does not know", async () => {
    const s = await shop();
    const order = await openWebOrder(f, s);
    await f.sim.control.approveOrder(order.orderId);
    const web = await f.complete({
      campaignKey: s.campaignKey,
      purchase: order.id,
      orderId: order.orderId,
      authorized: true,
    });
    const unknown = await f.complete({
      campaignKey: s.campaignKey,
      purchase: "00000000-0000-4000-8000-000000000000",
      orderId: order.orderId,
      authorized: true,
    });
    expect(web.status).toBe(404);
    expect(web.body).toEqual(unknown.body);
    expect(await order.state()).toBe("INITIATED");
    expect(await f.sim.control.listCalls({ call: "QueryTxn" })).not.toContainEqual(
      expect.objectContaining({ params: expect.objectContaining({ orderid: order.orderId }) }),
    );
  });

  it("credits once an abandoned order Steam's report shows settled after all; the state stays", async () => {
    const s = await shop();
    const order = await openWebOrder(f, s);
    await f.sweeper({ now: minutesFromNow(16) }).runOnce();
    expect(await order.state()).toBe("ABANDONED");
    // Never expected (only FinalizeTxn captures): Steam says it captured the order anyway.
    await f.sim.control.setOrderStatus(order.orderId, "Succeeded");
    const clock = testClock();
    const job = replica(f, clock);
    expect(await reconcile(job, s)).toMatchObject({ settled: 1, mismatches: 1 });
    expect(await f.db.purchase.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      state: "ABANDONED",
      creditTime: clock.now,
    });
    await f.db.reconciliationCursor.deleteMany({ where: { linkId: s.linkId } });
    clock.tick();
    expect(await reconcile(job, s)).toMatchObject({ settled: 0, mismatches: 0 });
    expect(await readMoney(f.db, s)).toMatchObject({
      outstandingNanos: CREDIT,
      reservedNanos: 0n,
      balanceNanos: CREDIT,
      ledger: [{ purchaseId: order.id, amountNanos: CREDIT }],
    });
  });

  describe("a return racing the abandon", () => {
    /** An approved web order, past the window, whose sweeper has read Steam's answer and is held there. */
    async function sweeperHeldAfterQuery(s: SeededShop) {
      const order = await openWebOrder(f, s);
      await f.sim.control.approveOrder(order.orderId);
      const paused = pausedAfterQuery(f.steam);
      const sweep = f.sweeper({ now: minutesFromNow(16) }, undefined, paused.platform).runOnce();
      await paused.queried;
      return { order, sweep, release: paused.release };
    }

    it("credits when the return captured first; the abandon then finds it moved on", async () => {
      const s = await shop();
      const { order, sweep, release } = await sweeperHeldAfterQuery(s);
      expect(await order.returned()).toMatchObject({ state: "CREDITED" });
      release();
      await sweep;
      expect(await order.state()).toBe("CREDITED");
      expect(await finalizeCalls(order.orderId)).toHaveLength(1);
      expect((await readMoney(f.db, s)).ledger).toHaveLength(1);
    });

    it("never abandons an order a return is capturing; it is credited once", async () => {
      const s = await shop();
      const { order, sweep, release } = await sweeperHeldAfterQuery(s);
      // The return marked the order AUTHORIZED and holds its FinalizeTxn when the sweeper, acting
      // on what it read before, tries to abandon it.
      let finalizing = () => {};
      const reached = new Promise<void>((resolve) => {
        finalizing = resolve;
      });
      let letFinalize = () => {};
      const gate = new Promise<void>((resolve) => {
        letFinalize = resolve;
      });
      const held: SteamPlatform = {
        ...f.steam,
        async finalizeTxn(ref) {
          finalizing();
          await gate;
          return f.steam.finalizeTxn(ref);
        },
      };
      const returning = order.returned({ steam: held });
      await reached;
      release();
      await sweep;
      expect(await order.state()).toBe("AUTHORIZED");
      letFinalize();
      expect(await returning).toMatchObject({ kind: "settled", state: "CREDITED" });
      expect(await finalizeCalls(order.orderId)).toHaveLength(1);
      expect((await readMoney(f.db, s)).ledger).toHaveLength(1);
    });

    it("never finalizes when the abandon came first; the return finds it abandoned", async () => {
      const s = await shop();
      const order = await openWebOrder(f, s);
      await f.sim.control.approveOrder(order.orderId);
      // The return read Approved and is held before it begins the capture.
      const paused = pausedAfterQuery(f.steam);
      const returning = order.returned({ steam: paused.platform });
      await paused.queried;
      await f.sweeper({ now: minutesFromNow(16) }).runOnce();
      expect(await order.state()).toBe("ABANDONED");
      paused.release();
      expect(await returning).toMatchObject({ kind: "settled", state: "ABANDONED" });
      expect(await finalizeCalls(order.orderId)).toEqual([]);
      expect(await readMoney(f.db, s)).toMatchObject(unpaid);
    });

    // Races need several connections: real PostgreSQL.
    it("ends one way, never both: credited once, or abandoned with nothing finalized", async (context) => {
      if (!onPostgres(f.server.db)) context.skip();
      const s = await shop();
      const outcomes = new Set<string>();
      for (let round = 0; round < 8; round += 1) {
        const order = await openWebOrder(f, s);
        await f.sim.control.approveOrder(order.orderId);
        const before = (await readMoney(f.db, s)).ledger.length;
        await Promise.all([
          order.returned(),
          f.sweeper({ now: minutesFromNow(16) }).runOnce(),
          order.returned(),
          f.sweeper({ now: minutesFromNow(16) }).runOnce(),
        ]);
        const state = await order.state();
        outcomes.add(state);
        const credits = (await readMoney(f.db, s)).ledger.length - before;
        const finalized = (await finalizeCalls(order.orderId)).length;
        if (state === "CREDITED") expect({ credits, finalized }).toEqual({ credits: 1, finalized: 1 });
        else expect({ state, credits, finalized }).toEqual({ state: "ABANDONED", credits: 0, finalized: 0 });
      }
      expect(await readMoney(f.db, s)).toMatchObject({ reservedNanos: 0n });
      expect([...outcomes].every((state) => state === "CREDITED" || state === "ABANDONED")).toBe(true);
    });
  });
});
