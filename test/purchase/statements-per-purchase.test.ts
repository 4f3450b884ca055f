import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOLLAR } from "../support/seed.js";
import { spansUnder } from "../support/traced.js";
import { startTracedPurchaseFixture, type TracedPurchaseFixture } from "./purchase-fixture.js";

// The purchase path's round trips to the database are its cost (docs/performance.md), so their
// number is pinned down here: a statement added to begin or complete fails this test, and the
// docs' count changes with it. Counted as Prisma's database spans under each call's span.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("the statements of a purchase, on PostgreSQL", () => {
  let f: TracedPurchaseFixture;
  beforeAll(async () => {
    f = await startTracedPurchaseFixture();
  });
  afterAll(() => f.close());

  /** The statements (and the steam calls) the call named `rpc` made, in order. */
  function callSpans(rpc: string): { statements: number; steam: string[] } {
    const spans = f.exporter.getFinishedSpans();
    const call = spans.find((span) => span.name === `encore.campaign.v1.CampaignService/${rpc}`);
    if (!call) throw new Error(`no span of ${rpc}`);
    const descendants = spansUnder(spans, call);
    return {
      statements: descendants.filter((span) => span.name === "prisma:client:db_query").length,
      steam: descendants.filter((span) => span.name.startsWith("steam ")).map((span) => span.name),
    };
  }

  it("is 3 statements to begin and 2 to complete on the replica that began it: the funding after the credit costs none", async () => {
    const shop = await f.shop({ balanceNanos: 10n * DOLLAR });
    const player = await f.player(shop);
    f.exporter.reset();
    const begun = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(begun.status).toBe(200);
    // The begin's facts, the opening, how InitTxn ended (docs/settlement.md "A begin repeated").
    expect(callSpans("BeginPurchase")).toEqual({
      statements: 3,
      steam: ["steam AuthenticateUserTicket", "steam InitTxn"],
    });

    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    f.exporter.reset();
    const completed = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    expect(completed.body).toMatchObject({ state: "STATE_CREDITED", funding: { balance: { units: "13" } } });
    // The purchase as its begin left it (begun-purchases.ts); AUTHORIZED with the capture lease
    // and the transaction id; the credit (which answers the funding).
    expect(callSpans("CompletePurchase")).toEqual({ statements: 2, steam: ["steam QueryTxn", "steam FinalizeTxn"] });
    const row = await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } });
    expect(row.transId).toBe((await f.sim.control.getOrder(orderId))?.transid);
  });

  it("reads the purchase first when this replica's record of its begin was taken: a retried complete", async () => {
    const shop = await f.shop({ balanceNanos: 10n * DOLLAR });
    const player = await f.player(shop);
    const begun = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    // Unanswered however often the call is retried.
    await f.sim.control.injectFault({ call: "QueryTxn", kind: "http5xx", status: 502, times: 100 });
    const failed = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    expect(failed.status).toBe(503);
    await f.sim.control.clearFaults();

    f.exporter.reset();
    const completed = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    expect(completed.body).toMatchObject({ state: "STATE_CREDITED", funding: { balance: { units: "13" } } });
    // The purchase read first, then as above.
    expect(callSpans("CompletePurchase")).toEqual({ statements: 3, steam: ["steam QueryTxn", "steam FinalizeTxn"] });
  });
});
