// The studio's side: a purchase shows its reversal, ListPurchases filters by it, and
// GetFunding shows reversals over the window beside purchases (over Connect and REST).

import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingService, LedgerEntry_Type } from "../../gen/encore/billing/v1/billing_service_pb.js";
import { Purchase_Reversal_Kind, Purchase_State } from "../../gen/encore/campaign/v1/purchase_pb.js";
import { issueToken } from "../../src/core/credentials.js";
import { ownerClient } from "../purchase/owner-client.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { DOLLAR } from "../support/seed.js";
import { creditedPurchase, expectInvariants, invariantCheckedShops, replica } from "./reconciliation-fixture.js";

describe("reversals as the studio sees them", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());
  // Every shop a scenario seeds has its invariants asserted after the scenario.
  const seed = invariantCheckedShops(() => f);

  it("shows a purchase's reversal, filters ListPurchases by it, and counts it in GetFunding", async () => {
    const s = await seed({ offer: { priceNanos: 10n * DOLLAR, creditNanos: 7n * DOLLAR } });
    const owner = await ownerClient(f, s.accountId);
    const campaign = `accounts/${s.accountId}/campaigns/${s.campaignId}`;
    const refunded = await creditedPurchase(f, s);
    const kept = await creditedPurchase(f, s);
    const order = await f.sim.control.setOrderStatus(refunded.orderId, "RefundedSuspectedFraud");
    // Seen now: inside GetFunding's window, which ends at the server's now.
    const job = replica(f, { now: new Date() });
    await job.runOnce();
    await job.steam.close();
    await expectInvariants(f.db, s);

    const got = await owner.getPurchase({ name: `${campaign}/purchases/${refunded.id}` });
    // STATE_CREDITED: the game's answer never changes.
    expect(got.state).toBe(Purchase_State.CREDITED);
    expect(got.reversal).toMatchObject({
      kind: Purchase_Reversal_Kind.REFUNDED_SUSPECTED_FRAUD,
      reversedCredit: { currencyCode: "USD", units: 7n, nanos: 0 },
      platformTime: { seconds: BigInt(Date.parse(order.time) / 1000) },
    });
    expect((await owner.getPurchase({ name: `${campaign}/purchases/${kept.id}` })).reversal).toBeUndefined();

    const rest = await f.server.rest("GET", `/v1/${campaign}/purchases/${refunded.id}`, undefined, {
      authorization: `Bearer ${await ownerToken(f, s.accountId)}`,
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      state: "STATE_CREDITED",
      reversal: {
        kind: "KIND_REFUNDED_SUSPECTED_FRAUD",
        reversedCredit: { currencyCode: "USD", units: "7" },
        platformTime: order.time,
      },
    });

    const ids = async (filter: string) =>
      (await owner.listPurchases({ parent: campaign, filter })).purchases.map((p) => p.name.split("/").pop());
    expect(await ids("reversed = true")).toEqual([refunded.id]);
    expect(await ids("reversed = false")).toEqual([kept.id]);
    expect((await ids("")).sort()).toEqual([refunded.id, kept.id].sort());
    await expect(owner.listPurchases({ parent: campaign, filter: "state = CREDITED" })).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });

    const billing = f.server.client(BillingService, "connect", await ownerToken(f, s.accountId));
    const ledger = await billing.listLedgerEntries({
      parent: `accounts/${s.accountId}/projects/${s.projectId}`,
      filter: 'type = "TYPE_REVERSAL"',
    });
    expect(ledger.ledgerEntries).toMatchObject([
      {
        type: LedgerEntry_Type.REVERSAL,
        amount: { units: -7n, nanos: 0 },
        source: `${campaign}/purchases/${refunded.id}`,
      },
    ]);

    const funding = await owner.getFunding({ name: `${campaign}/funding` });
    expect(funding).toMatchObject({
      purchaseCount: 2n,
      purchasedCredit: { units: 14n },
      reversalCount: 1n,
      reversedCredit: { units: 7n },
      balance: { units: 7n },
    });
  });

  it("shows a FAILED purchase credited from the report: state kept, credit time set, counted in GetFunding", async () => {
    const s = await seed({ offer: { priceNanos: 10n * DOLLAR, creditNanos: 7n * DOLLAR } });
    const owner = await ownerClient(f, s.accountId);
    const campaign = `accounts/${s.accountId}/campaigns/${s.campaignId}`;
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.expireOrder(orderId);
    const done = await f.complete({ campaignKey: s.campaignKey, purchase, orderId, authorized: true });
    expect(done.body).toMatchObject({ state: "STATE_FAILED" });
    await f.sim.control.setOrderStatus(orderId, "Succeeded");
    // Seen now: inside GetFunding's window, which ends at the server's now.
    const seenAt = new Date();
    const job = replica(f, { now: seenAt });
    await job.runOnce();
    await job.steam.close();
    await expectInvariants(f.db, s);

    const got = await owner.getPurchase({ name: `${campaign}/purchases/${purchase}` });
    expect(got.state).toBe(Purchase_State.FAILED);
    expect(got.creditTime).toMatchObject({ seconds: BigInt(Math.floor(seenAt.getTime() / 1000)) });
    expect(got.reversal).toBeUndefined();
    const funding = await owner.getFunding({ name: `${campaign}/funding` });
    expect(funding).toMatchObject({
      purchaseCount: 1n,
      purchasedCredit: { units: 7n },
      reversalCount: 0n,
      balance: { units: 7n },
    });
  });
});

/** An OWNER API key of the account, seeded in the store, for REST calls. */
async function ownerToken(f: PurchaseFixture, accountId: string): Promise<string> {
  const issued = issueToken("ek_");
  await f.db.apiKey.create({
    data: {
      id: randomUUID(),
      accountId,
      displayName: "rest owner",
      role: "OWNER",
      keyHash: issued.hash,
      keyPrefix: issued.displayPrefix,
    },
  });
  return issued.token;
}
