// Reconciliation scenarios run the real service, the real Steam client and the
// simulator; purchases are made through the public calls, the platform's later refunds and
// chargebacks set through the simulator's control API.

import { afterEach, expect } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { ServiceDeps } from "../../src/core/deps.js";
import { OPEN_STATES } from "../../src/domain/purchase-state.js";
import { createReconciliationJob, type ReconciliationJob } from "../../src/jobs/reconciliation-job.js";
import { createSteamClient, type SteamClient } from "../../src/platform/steam/create-steam-client.js";
import { createWebhookEvents } from "../../src/services/webhooks/resource-events.js";
import type { Db } from "../../src/store/open-database.js";
import type { PurchaseFixture } from "../purchase/purchase-fixture.js";
import type { SeedCampaignOptions, SeedOfferOptions } from "../support/seed.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { testServiceDeps } from "../support/service-deps.js";

export const INTERVAL_MS = 10 * 60_000;

/** A clock the test moves: each `tick()` passes one reconciliation interval and a bit. */
export function testClock() {
  const clock = { now: new Date(Date.now() + 60_000), tick: () => {} };
  clock.tick = () => {
    clock.now = new Date(clock.now.getTime() + INTERVAL_MS + 60_000);
  };
  return clock;
}

/** A replica's reconciliation job: its own platform client, the shared database. */
export function replica(
  f: PurchaseFixture,
  clock: { now: Date },
  options: { pageSize?: number; metrics?: ServiceDeps["metrics"] } = {},
): ReconciliationJob & { steam: SteamClient; deps: ServiceDeps } {
  const config = loadConfig({ STEAM_API_URL: f.sim.url, STEAM_STORE_URL: f.sim.storeUrl, LOG_LEVEL: "silent" });
  const steam = createSteamClient({
    apiUrl: f.sim.url,
    storeUrl: f.sim.storeUrl,
    openIdUrl: f.sim.openIdUrl,
    timeoutMs: 2000,
    readRetries: 0,
  });
  const deps = testServiceDeps({
    db: f.db,
    config,
    steam,
    now: () => clock.now,
    webhookEvents: createWebhookEvents({ publicUrl: config.publicUrl }),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const job = createReconciliationJob({ deps, intervalMs: INTERVAL_MS, pageSize: options.pageSize });
  return Object.assign(job, { steam, deps });
}

/** One pass of `job`; what it came to for this shop's link (other tests' links share the database). */
export async function reconcile(job: ReconciliationJob, shop: { linkId: string }) {
  const results = await job.runOnce();
  return results.find((result) => result.linkId === shop.linkId)?.report;
}

/** A purchase made by a player and credited through the public calls (spec 3.1). */
export async function creditedPurchase(
  f: PurchaseFixture,
  shop: SeededShop,
  book: { sandbox?: boolean } = {},
): Promise<{ id: string; orderId: string }> {
  const player = await f.player(shop);
  const begun = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
  expect(begun.status).toBe(200);
  const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
  await f.sim.control.approveOrder(orderId, book);
  const done = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
  expect(done.body).toMatchObject({ state: "STATE_CREDITED" });
  return { id: purchase, orderId };
}

let nextOrder = 5_000_000_000_000_000_000n;

/**
 * A purchase of a two-line order (the service itself sells one line per order, so a partial
 * refund of part of an order needs one made behind its back): the order is opened, approved and
 * captured on the platform, the purchase recorded open with its credit reserved, as if the
 * service died right after FinalizeTxn.
 */
export async function twoLineOrder(
  f: PurchaseFixture,
  shop: SeededShop,
  options: { creditNanos: bigint; amountsCents: [bigint, bigint] },
): Promise<{ id: string; orderId: string }> {
  nextOrder += 1n;
  const orderId = nextOrder.toString();
  const player = await f.player(shop);
  const ref = { publisherKey: shop.publisherKey, sandbox: false, appid: shop.appId, orderid: orderId };
  const opened = await f.steam.initTxn({
    ...ref,
    steamid: player.steamid,
    language: "en",
    currency: "USD",
    items: options.amountsCents.map((amountCents, n) => ({ itemid: n + 1, qty: 1, amountCents, description: "x" })),
  });
  expect(opened.kind).toBe("ok");
  await f.sim.control.approveOrder(orderId);
  expect((await f.steam.finalizeTxn(ref)).kind).toBe("ok");
  const id = `twoline-${orderId}`;
  await f.db.$transaction([
    f.db.purchase.create({
      data: {
        id,
        campaignId: shop.campaignId,
        offerId: shop.offerId,
        linkId: shop.linkId,
        orderId: BigInt(orderId),
        playerId: player.steamid,
        state: "AUTHORIZED",
        priceNanos: 10n * 1_000_000_000n,
        creditNanos: options.creditNanos,
        sandbox: false,
        language: "en",
      },
    }),
    f.db.distributorLink.update({
      where: { id: shop.linkId },
      data: { reservedNanos: { increment: options.creditNanos } },
    }),
  ]);
  return { id, orderId };
}

const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * Seeds shops for reconciliation scenarios and, after each test, asserts the invariants of issue
 * 15 (expectInvariants) on every shop the test seeded through it: no scenario ends unchecked.
 * Call it in the `describe` body; `fixture` is read once the test runs.
 */
export function invariantCheckedShops(fixture: () => PurchaseFixture) {
  const seeded: SeededShop[] = [];
  afterEach(async () => {
    for (const shop of seeded.splice(0)) await expectInvariants(fixture().db, shop);
  });
  return async (options?: SeedCampaignOptions & { offer?: SeedOfferOptions }): Promise<SeededShop> => {
    const shop = await fixture().shop(options);
    seeded.push(shop);
    return shop;
  };
}

/**
 * The reconciliation invariants (docs/settlement.md "Credit from Steam's report"), from independent sources:
 * project balance == top-ups + credited purchases - reversals - spend;
 * link outstanding == issued - reversed - settled;
 * link reserved == the credit of its open purchases.
 * A purchase is credited when it carries a credit time: CREDITED ones, and ones the service
 * ended FAILED or CANCELLED that reconciliation credited from the report (docs/settlement.md).
 */
export async function expectInvariants(db: Db, shop: { projectId: string; linkId: string; campaignId: string }) {
  const project = await db.project.findUniqueOrThrow({ where: { id: shop.projectId } });
  const ledger = await db.ledgerEntry.findMany({ where: { projectId: shop.projectId } });
  const byType = (type: string) => sum(ledger.filter((e) => e.type === type).map((e) => e.amountNanos));
  const credited = await db.purchase.findMany({
    where: { campaignId: shop.campaignId, creditTime: { not: null }, sandbox: false },
  });
  const reversals = await db.purchaseReversal.findMany({ where: { purchase: { campaignId: shop.campaignId } } });
  const creditedNanos = sum(credited.map((p) => p.creditNanos));
  const reversedNanos = sum(reversals.map((r) => r.reversedNanos));
  const spend = -byType("USAGE");
  expect(byType("PLAYER_TOP_UP")).toBe(creditedNanos);
  // Each credited purchase has its one top-up entry of its credit, and no other purchase has one.
  const topUps = ledger.filter((e) => e.type === "PLAYER_TOP_UP").map((e) => [e.purchaseId, e.amountNanos]);
  expect(topUps.sort()).toEqual(credited.map((p) => [p.id, p.creditNanos]).sort());
  expect(-byType("REVERSAL")).toBe(reversedNanos);
  expect(project.balanceNanos).toBe(byType("DEVELOPER_TOP_UP") + creditedNanos - reversedNanos - spend);

  const link = await db.distributorLink.findUniqueOrThrow({ where: { id: shop.linkId } });
  const linkCredited = await db.purchase.findMany({
    where: { linkId: shop.linkId, creditTime: { not: null }, sandbox: false },
  });
  const linkReversals = await db.purchaseReversal.findMany({ where: { linkId: shop.linkId } });
  const settled = await db.settlement.findMany({ where: { linkId: shop.linkId } });
  const issued = sum(linkCredited.map((p) => p.creditNanos));
  const reversed = sum(linkReversals.map((r) => r.reversedNanos));
  expect(link.issuedNanos).toBe(issued);
  expect(link.reversedNanos).toBe(reversed);
  expect(link.outstandingNanos).toBe(issued - reversed - sum(settled.map((s) => s.amountNanos)));
  // And what the link holds reserved is what its open purchases hold: no end or credit released
  // a reservation twice, or left one behind.
  const open = await db.purchase.findMany({
    where: { linkId: shop.linkId, state: { in: [...OPEN_STATES] }, sandbox: false },
  });
  expect(link.reservedNanos).toBe(sum(open.map((p) => p.creditNanos)));
}

/** Spend `amountNanos` of the project's credit (usage), as metering would. */
export async function spend(db: Db, projectId: string, amountNanos: bigint, at: Date): Promise<void> {
  await db.$transaction([
    db.ledgerEntry.create({
      data: {
        id: `usage-${at.getTime()}-${amountNanos}`,
        projectId,
        type: "USAGE",
        amountNanos: -amountNanos,
        createTime: at,
      },
    }),
    db.project.update({ where: { id: projectId }, data: { balanceNanos: { decrement: amountNanos } } }),
  ]);
}
