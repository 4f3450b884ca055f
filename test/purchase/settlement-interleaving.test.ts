import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { pausedAfterQuery } from "./paused-platform.js";
import { minutesFromNow, type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// Spec 3.1, DESIGN 3, reference 3.13: the sweeper's cancel of an order it saw in Init and a
// complete that saw it Approved meet at the cancel boundary. Whoever moves the purchase first
// wins; the player is never charged without the credit. The interleaving is driven, not raced:
// the sweeper is paused right after its QueryTxn answered Init, and the complete's next
// platform call is held by the simulator's latency fault while the sweeper goes on.
const HELD_MS = 3000;

describe("settlement at the cancel boundary", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    // Long enough that a held platform call does not time out.
    f = await startPurchaseFixture({ STEAM_TIMEOUT_MS: "5000" });
  });
  afterAll(() => f.close());

  async function untilLogged(call: "QueryTxn" | "FinalizeTxn", count: number) {
    while ((await f.sim.control.listCalls({ call })).length < count) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Begins a purchase; the sweeper (past the cancel age) has seen it Init; the player then approves it. */
  async function approvedAfterSweeperSawInit() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    const { purchase, orderId } = res.body as { purchase: string; orderId: string };
    await f.sim.control.clearCalls();
    const paused = pausedAfterQuery(f.steam);
    const sweep = f.sweeper({ now: minutesFromNow(16) }, undefined, paused.platform).runOnce();
    await paused.queried;
    await f.sim.control.approveOrder(orderId);
    const complete = () => f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    const state = async () => (await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).state;
    return { shop, orderId, sweep, release: paused.release, complete, state };
  }

  it("never captures an order whose purchase the sweeper cancelled first; it stays unpaid", async () => {
    const { shop, orderId, sweep, release, complete, state } = await approvedAfterSweeperSawInit();
    // The complete's QueryTxn (the second one logged) answers Approved, but only after the cancel.
    await f.sim.control.injectFault({ call: "QueryTxn", kind: "latency", ms: HELD_MS });
    const completing = complete();
    await untilLogged("QueryTxn", 2);
    release();
    expect(await sweep).toMatchObject({ looked: 1, settled: 1 });
    expect(await state()).toBe("CANCELLED");
    const res = await completing;
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("STATE_CANCELLED");
    expect(await f.sim.control.listCalls({ call: "FinalizeTxn" })).toEqual([]);
    expect((await f.sim.control.getOrder(orderId))?.status).toBe("Approved");
    expect(await state()).toBe("CANCELLED");
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 0n,
      reservedNanos: 0n,
      balanceNanos: 0n,
      ledger: [],
    });
  });

  it("does not cancel a purchase a complete moved to AUTHORIZED; the capture is credited once", async () => {
    const { shop, orderId, sweep, release, complete, state } = await approvedAfterSweeperSawInit();
    // The complete marked the purchase AUTHORIZED and its FinalizeTxn is in flight when the
    // sweeper, acting on its earlier Init, tries to cancel.
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "latency", ms: HELD_MS });
    const completing = complete();
    await untilLogged("FinalizeTxn", 1);
    release();
    await sweep;
    expect(await state()).toBe("AUTHORIZED");
    const res = await completing;
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("STATE_CREDITED");
    expect((await f.sim.control.getOrder(orderId))?.status).toBe("Succeeded");
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      balanceNanos: 3n * DOLLAR,
      ledger: [expect.anything()],
    });
  });
});
