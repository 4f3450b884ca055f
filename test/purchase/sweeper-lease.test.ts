import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { pausedAfterQuery } from "./paused-platform.js";
import { minutesFromNow, type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// DESIGN 3, src/jobs/job.ts: several sweeper replicas share the work through leases. A replica
// slowed by the platform must not go on to work a purchase whose lease ran out and another
// replica took meanwhile.
describe("sweeper leases across a slow batch", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  async function approvedPurchase() {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    const { orderId } = res.body as { orderId: string };
    await f.sim.control.approveOrder(orderId);
    return orderId;
  }

  it("skips the purchases of a batch whose lease another replica took while it waited", async () => {
    const orders = [await approvedPurchase(), await approvedPurchase()];
    await f.sim.control.clearCalls();
    // Replica A leases both, then waits on the platform over its first purchase.
    const paused = pausedAfterQuery(f.steam);
    const slow = f.sweeper({ now: minutesFromNow(2) }, undefined, paused.platform).runOnce();
    await paused.queried;
    const [held] = await f.sim.control.listCalls({ call: "QueryTxn" });
    const other = orders.find((order) => order !== held?.params.orderid);
    // A's lease has run out by replica B's clock: B takes both and settles them.
    expect(await f.sweeper({ now: minutesFromNow(4) }).runOnce()).toMatchObject({ looked: 2, settled: 2 });
    paused.release();
    expect(await slow).toMatchObject({ looked: 2, lost: 1 });
    const queried = await f.sim.control.listCalls({ call: "QueryTxn" });
    // The purchase A had not reached yet was worked by B alone.
    expect(queried.filter((call) => call.params.orderid === other)).toHaveLength(1);
  });
});
