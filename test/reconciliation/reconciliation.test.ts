// docs/settlement.md "Credit from Steam's report": refunds and chargebacks reconciled from
// Steam's GetReport, against the simulator and PostgreSQL. After every scenario the invariants
// hold (expectInvariants).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { endPurchase } from "../../src/store/purchases.js";
import { reconcileLink } from "../../src/usecases/reconciliation/reconcile-link.js";
import { ownerClient } from "../purchase/owner-client.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { DOLLAR } from "../support/seed.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { TEST_OPERATOR_TOKEN } from "../support/test-server.js";
import {
  creditedPurchase,
  expectInvariants,
  invariantCheckedShops,
  reconcile,
  replica,
  spend,
  testClock,
  twoLineOrder,
} from "./reconciliation-fixture.js";

const CREDIT = 7n * DOLLAR;

// Races need several connections: real PostgreSQL (CI sets TEST_DATABASE_URL).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe("reconciliation with Steam's report", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  // Every shop a scenario seeds has its invariants asserted after the scenario.
  const seed = invariantCheckedShops(() => f);
  const shop = () => seed({ offer: { priceNanos: 10n * DOLLAR, creditNanos: CREDIT } });
  const reversalOf = (purchaseId: string) => f.db.purchaseReversal.findUnique({ where: { purchaseId } });
  const reversalEntries = (s: SeededShop) =>
    f.db.ledgerEntry.findMany({ where: { projectId: s.projectId, type: "REVERSAL" } });
  const balance = async (s: SeededShop) =>
    (await f.db.project.findUniqueOrThrow({ where: { id: s.projectId } })).balanceNanos;

  it.each([
    ["Refunded", "REFUNDED"],
    ["Chargedback", "CHARGEDBACK"],
    ["RefundedSuspectedFraud", "REFUNDED_SUSPECTED_FRAUD"],
    ["RefundedFriendlyFraud", "REFUNDED_FRIENDLY_FRAUD"],
  ] as const)("takes the credit of a %s order back once; the purchase stays CREDITED", async (status, kind) => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const purchase = await creditedPurchase(f, s);
    await job.runOnce();
    expect(await reversalOf(purchase.id)).toBeNull();
    await expectInvariants(f.db, s);

    const refunded = await f.sim.control.setOrderStatus(purchase.orderId, status);
    clock.tick();
    const result = await reconcile(job, s);
    expect(result).toMatchObject({ reversed: 1, reversedNanos: CREDIT, drained: true });
    expect(await reversalOf(purchase.id)).toMatchObject({
      kind,
      reversedNanos: CREDIT,
      platformTime: new Date(refunded.time),
      seenTime: clock.now,
    });
    expect(await reversalEntries(s)).toMatchObject([{ amountNanos: -CREDIT, reversalId: purchase.id }]);
    expect(await balance(s)).toBe(0n);
    const link = await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } });
    expect(link).toMatchObject({ issuedNanos: CREDIT, reversedNanos: CREDIT, outstandingNanos: 0n });
    // The game's answer never changes (spec 3.1).
    const again = await f.complete({
      campaignKey: s.campaignKey,
      purchase: purchase.id,
      orderId: purchase.orderId,
      authorized: true,
    });
    expect(again.body).toMatchObject({ state: "STATE_CREDITED" });
    await expectInvariants(f.db, s);
  });

  it("takes back credit already settled with the operator: outstanding goes below zero, the cursor moves on", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const operator = f.server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
    const link = `accounts/${s.accountId}/distributorLinks/${s.linkId}`;
    const purchase = await creditedPurchase(f, s);
    await job.runOnce();
    // The studio paid the operator for the credit; then the player was refunded.
    await operator.recordSettlement({ parent: link, amount: { currencyCode: "USD", units: 7n, nanos: 0 } });
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded");
    clock.tick();
    expect(await reconcile(job, s)).toMatchObject({ reversed: 1, reversedNanos: CREDIT, drained: true });
    const cursor = await f.db.reconciliationCursor.findFirstOrThrow({ where: { linkId: s.linkId } });
    expect(cursor.seenOrderIds).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${purchase.orderId} Refunded`))]),
    );
    expect(await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } })).toMatchObject({
      issuedNanos: CREDIT,
      reversedNanos: CREDIT,
      outstandingNanos: -CREDIT,
    });
    // The studio sees it: it has paid for 7 USD of credit that Steam took back.
    const owner = await ownerClient(f, s.accountId);
    expect((await owner.getDistributorLink({ name: link })).outstanding).toMatchObject({ units: -7n, nanos: 0 });
    clock.tick();
    expect(await reconcile(job, s)).toMatchObject({ reversed: 0, drained: true });
    await expectInvariants(f.db, s);

    // Paid ahead is not headroom: a limit of zero still stops every sale, and a limit of one
    // purchase allows one at a time.
    const begin = async () => {
      const player = await f.player(s);
      return f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    };
    const limit = (units: bigint) =>
      operator.setOutstandingLimit({ name: link, outstandingLimit: { currencyCode: "USD", units, nanos: 0 } });
    await limit(0n);
    expect((await begin()).body.details[0]).toMatchObject({ reason: "PUBLISHER_LIMIT_REACHED" });
    await limit(7n);
    expect((await begin()).status).toBe(200);
    expect((await begin()).body.details[0]).toMatchObject({ reason: "PUBLISHER_LIMIT_REACHED" });
    // Settling more than is outstanding stays refused.
    await expect(
      operator.recordSettlement({ parent: link, amount: { currencyCode: "USD", units: 1n, nanos: 0 } }),
    ).rejects.toMatchObject({ rawMessage: expect.stringContaining("outstanding") });
  });

  it("records a reversal the report repeats only once", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const purchase = await creditedPurchase(f, s);
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded");
    await job.runOnce();
    clock.tick();
    // The order shows up again later (its time moved) with the same status; and the cursor is
    // rewound so the same rows are read again.
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded", undefined, {
      time: new Date(Date.now() + 5000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    });
    const second = await reconcile(job, s);
    expect(second).toMatchObject({ reversed: 0, pages: 1 });
    await f.db.reconciliationCursor.deleteMany({ where: { linkId: s.linkId } });
    clock.tick();
    const third = await reconcile(job, s);
    expect(third).toMatchObject({ reversed: 0 });
    expect(await reversalEntries(s)).toHaveLength(1);
    expect(await balance(s)).toBe(0n);
    await expectInvariants(f.db, s);
  });

  it("lets the balance go below zero when the credit was spent: funded false, runway 0", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const purchase = await creditedPurchase(f, s);
    await spend(f.db, s.projectId, 5n * DOLLAR + DOLLAR / 2n, new Date(Date.now() - 60_000));
    await f.sim.control.setOrderStatus(purchase.orderId, "Chargedback");
    await job.runOnce();
    expect(await balance(s)).toBe(-5n * DOLLAR - DOLLAR / 2n);
    const funding = await f.server.rest("POST", "/v1/public/funding:get", { campaignKey: s.campaignKey });
    expect(funding.body).toMatchObject({
      funded: false,
      runwayDays: "0",
      balance: { currencyCode: "USD", units: "-5", nanos: -500_000_000 },
    });
    await expectInvariants(f.db, s);
  });

  it("credits an order the report shows settled that the service never credited, exactly once", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    // Finalised, then the process died before crediting.
    const ref = { publisherKey: s.publisherKey, sandbox: false, appid: s.appId, orderid: orderId };
    expect((await f.steam.finalizeTxn(ref)).kind).toBe("ok");
    const result = await reconcile(job, s);
    expect(result).toMatchObject({ settled: 1, reversed: 0 });
    expect((await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).state).toBe("CREDITED");
    await f.sweeper({ now: new Date(Date.now() + 5 * 60_000) }).runOnce();
    const done = await f.complete({ campaignKey: s.campaignKey, purchase, orderId, authorized: true });
    expect(done.body).toMatchObject({ state: "STATE_CREDITED" });
    expect(await f.db.ledgerEntry.count({ where: { purchaseId: purchase } })).toBe(1);
    expect(await balance(s)).toBe(CREDIT);
    expect(await f.db.reconciliationFinding.findMany({ where: { purchaseId: purchase } })).toMatchObject([
      { kind: "CREDITED_FROM_REPORT", reportStatus: "Succeeded", linkId: s.linkId },
    ]);
    await expectInvariants(f.db, s);
  });

  /** A purchase the service ended without credit: FAILED (the order expired) or CANCELLED (declined). */
  const endedPurchase = async (s: SeededShop, state: "FAILED" | "CANCELLED") => {
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    if (state === "FAILED") await f.sim.control.expireOrder(orderId);
    else await f.sim.control.declineOrder(orderId);
    const done = await f.complete({ campaignKey: s.campaignKey, purchase, orderId, authorized: state === "FAILED" });
    expect(done.body).toMatchObject({ state: `STATE_${state}` });
    return { id: purchase, orderId };
  };
  const laterTime = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

  it.each(["FAILED", "CANCELLED"] as const)(
    "credits once an order the platform settled that the service ended %s; the game's answer stays",
    async (state) => {
      const s = await shop();
      const clock = testClock();
      const job = replica(f, clock);
      const purchase = await endedPurchase(s, state);
      // Never expected: Steam says it captured the order anyway. The player paid.
      await f.sim.control.setOrderStatus(purchase.orderId, "Succeeded");
      expect(await reconcile(job, s)).toMatchObject({ settled: 1, mismatches: 1, reversed: 0 });
      expect(await f.db.purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
        state,
        creditTime: clock.now,
      });
      expect(await f.db.ledgerEntry.findMany({ where: { purchaseId: purchase.id } })).toMatchObject([
        { type: "PLAYER_TOP_UP", amountNanos: CREDIT },
      ]);
      expect(await balance(s)).toBe(CREDIT);
      expect(await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } })).toMatchObject({
        issuedNanos: CREDIT,
        outstandingNanos: CREDIT,
        reservedNanos: 0n,
      });
      expect(await f.db.reconciliationFinding.findMany({ where: { purchaseId: purchase.id } })).toMatchObject([
        { kind: "CREDITED_FROM_REPORT", reportStatus: "Succeeded", detail: expect.stringContaining(`stays ${state}`) },
      ]);
      // The game's answer never changes (spec 3.1: complete is idempotent).
      const again = await f.complete({
        campaignKey: s.campaignKey,
        purchase: purchase.id,
        orderId: purchase.orderId,
        authorized: true,
      });
      expect(again.body).toMatchObject({ state: `STATE_${state}` });
      await expectInvariants(f.db, s);

      // The report read again credits nothing more.
      await f.db.reconciliationCursor.deleteMany({ where: { linkId: s.linkId } });
      clock.tick();
      expect(await reconcile(job, s)).toMatchObject({ settled: 0, mismatches: 0 });
      expect(await f.db.ledgerEntry.count({ where: { purchaseId: purchase.id } })).toBe(1);
      expect(await f.db.reconciliationFinding.count({ where: { purchaseId: purchase.id } })).toBe(1);
      await expectInvariants(f.db, s);

      // Refunded later, it is reversed like any credited purchase.
      await f.sim.control.setOrderStatus(purchase.orderId, "Refunded", undefined, { time: laterTime(5) });
      clock.tick();
      expect(await reconcile(job, s)).toMatchObject({ reversed: 1, reversedNanos: CREDIT });
      expect(await balance(s)).toBe(0n);
    },
  );

  it("credits the kept share of an order the service ended FAILED that the platform settled and partly refunded", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    // Two lines (USD 2.50 and 7.50) captured; the service ended the purchase FAILED anyway; the
    // 7.50 line refunded: the player paid for a quarter of the order.
    const purchase = await twoLineOrder(f, s, { creditNanos: CREDIT, amountsCents: [250n, 750n] });
    expect(await endPurchase(f.db, { purchaseId: purchase.id, to: "FAILED", now: new Date() })).toBe(true);
    await f.sim.control.setOrderStatus(purchase.orderId, "PartialRefund", undefined, {
      items: [{ itemid: 2, status: "Refunded" }],
    });
    expect(await reconcile(job, s)).toMatchObject({ settled: 1, mismatches: 1 });
    expect((await f.db.purchase.findUniqueOrThrow({ where: { id: purchase.id } })).state).toBe("FAILED");
    expect(await reversalOf(purchase.id)).toMatchObject({ kind: "PARTIAL_REFUND", reversedNanos: (CREDIT * 3n) / 4n });
    expect(await balance(s)).toBe(CREDIT / 4n);
    expect(await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } })).toMatchObject({
      issuedNanos: CREDIT,
      reversedNanos: (CREDIT * 3n) / 4n,
      outstandingNanos: CREDIT / 4n,
      reservedNanos: 0n,
    });
    expect(await f.db.reconciliationFinding.findMany({ where: { purchaseId: purchase.id } })).toMatchObject([
      { kind: "CREDITED_FROM_REPORT", reportStatus: "PartialRefund", detail: expect.stringContaining("refunded part") },
    ]);
    await expectInvariants(f.db, s);

    await f.db.reconciliationCursor.deleteMany({ where: { linkId: s.linkId } });
    clock.tick();
    expect(await reconcile(job, s)).toMatchObject({ settled: 0, reversed: 0, mismatches: 0 });
    expect(await f.db.ledgerEntry.count({ where: { purchaseId: purchase.id } })).toBe(1);
    expect(await reversalEntries(s)).toHaveLength(1);
  });

  it.each(["Refunded", "Chargedback", "PartialRefund"] as const)(
    "records, once, that nothing is owed for an order the service ended FAILED that the platform settled and took back (%s)",
    async (status) => {
      const s = await shop();
      const clock = testClock();
      const job = replica(f, clock);
      const purchase = await endedPurchase(s, "FAILED");
      const order = await f.sim.control.getOrder(purchase.orderId);
      const items = order?.items.map((item) => ({ itemid: item.itemid, status: "Refunded" as const }));
      await f.sim.control.setOrderStatus(
        purchase.orderId,
        status,
        undefined,
        status === "PartialRefund" ? { items } : {},
      );
      expect(await reconcile(job, s)).toMatchObject({ settled: 0, mismatches: 1, reversed: 0 });
      await f.db.reconciliationCursor.deleteMany({ where: { linkId: s.linkId } });
      clock.tick();
      expect(await reconcile(job, s)).toMatchObject({ mismatches: 0 });
      expect(await f.db.reconciliationFinding.findMany({ where: { purchaseId: purchase.id } })).toMatchObject([
        { kind: "SETTLED_NOT_CREDITED", reportStatus: status, detail: expect.stringContaining("nothing is owed") },
      ]);
      expect(await f.db.purchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
        state: "FAILED",
        creditTime: null,
      });
      expect(await balance(s)).toBe(0n);
      expect(await reversalOf(purchase.id)).toBeNull();
    },
  );

  it("never credits an open purchase whose order the report shows already refunded", async () => {
    const s = await shop();
    const job = replica(f, testClock());
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    await f.steam.finalizeTxn({ publisherKey: s.publisherKey, sandbox: false, appid: s.appId, orderid: orderId });
    await f.sim.control.setOrderStatus(orderId, "Refunded");
    await job.runOnce();
    expect((await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).state).toBe("FAILED");
    expect(await balance(s)).toBe(0n);
    expect(await reversalOf(purchase)).toBeNull();
    // Steam settled it and took it all back: nothing owed, and the books say why.
    expect(await f.db.reconciliationFinding.findMany({ where: { purchaseId: purchase } })).toMatchObject([
      { kind: "SETTLED_NOT_CREDITED", reportStatus: "Refunded" },
    ]);
    await expectInvariants(f.db, s);
  });

  it("marks a sandbox purchase ended FAILED that the sandbox settled as credited, moving no money", async () => {
    const s = await seed({ sandbox: true, offer: { priceNanos: 10n * DOLLAR, creditNanos: CREDIT } });
    const clock = testClock();
    const job = replica(f, clock);
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.expireOrder(orderId, { sandbox: true });
    const done = await f.complete({ campaignKey: s.campaignKey, purchase, orderId, authorized: true });
    expect(done.body).toMatchObject({ state: "STATE_FAILED" });
    await f.sim.control.setOrderStatus(orderId, "Succeeded", { sandbox: true });
    expect(await reconcile(job, s)).toMatchObject({ settled: 1, mismatches: 1 });
    expect(await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).toMatchObject({
      state: "FAILED",
      creditTime: clock.now,
    });
    expect(await f.db.ledgerEntry.count({ where: { projectId: s.projectId } })).toBe(0);
    expect(await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } })).toMatchObject({
      issuedNanos: 0n,
      outstandingNanos: 0n,
    });
    expect(await f.db.reconciliationFinding.count({ where: { purchaseId: purchase } })).toBe(1);
  });

  it("pages through the report: page boundaries, orders sharing one second, each reversed once", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock, { pageSize: 2 });
    const purchases = [];
    for (let n = 0; n < 5; n++) purchases.push(await creditedPurchase(f, s));
    const second = (offset: number) => new Date(Date.now() + offset * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    // Three refunds at one second: more than a page of 2 at a time paging by time cannot pass.
    for (const [n, p] of purchases.entries()) {
      await f.sim.control.setOrderStatus(p.orderId, "Refunded", undefined, { time: second(n < 3 ? 10 : 10 + n) });
    }
    await f.sim.control.clearCalls();
    const result = await reconcile(job, s);
    expect(result).toMatchObject({ reversed: 5, reversedNanos: 5n * CREDIT, drained: true });
    const calls = await f.sim.control.listCalls({ call: "GetReport" });
    expect(calls.length).toBeGreaterThan(3);
    expect(calls.map((c) => c.params.maxresults)).toContain("4");
    expect(await reversalEntries(s)).toHaveLength(5);
    expect(await balance(s)).toBe(0n);
    await expectInvariants(f.db, s);
  });

  it("takes nothing back for a partial refund of none of the order's lines", async () => {
    const s = await shop();
    const job = replica(f, testClock());
    const purchase = await creditedPurchase(f, s);
    const order = await f.sim.control.getOrder(purchase.orderId);
    const itemid = order?.items[0]?.itemid ?? 0;
    await f.sim.control.setOrderStatus(purchase.orderId, "PartialRefund", undefined, {
      items: [{ itemid, status: "Succeeded" }],
    });
    const result = await reconcile(job, s);
    expect(result).toMatchObject({ reversed: 0, drained: true });
    expect(await reversalOf(purchase.id)).toBeNull();
    await expectInvariants(f.db, s);
  });

  it("credits an order partly refunded before it was credited, with its reversal, exactly once", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    // Two lines (USD 2.50 and 7.50) captured while the service was down; the 7.50 line refunded
    // before any pass: the player paid for a quarter of the order.
    const purchase = await twoLineOrder(f, s, { creditNanos: CREDIT, amountsCents: [250n, 750n] });
    await f.sim.control.setOrderStatus(purchase.orderId, "PartialRefund", undefined, {
      items: [{ itemid: 2, status: "Refunded" }],
    });
    expect(await reconcile(job, s)).toMatchObject({ settled: 1, drained: true });
    expect((await f.db.purchase.findUniqueOrThrow({ where: { id: purchase.id } })).state).toBe("CREDITED");
    expect(await reversalOf(purchase.id)).toMatchObject({ kind: "PARTIAL_REFUND", reversedNanos: (CREDIT * 3n) / 4n });
    expect(await balance(s)).toBe(CREDIT / 4n);
    await expectInvariants(f.db, s);

    // The report read again changes nothing: credit and reversal stay once each.
    await f.db.reconciliationCursor.deleteMany({ where: { linkId: s.linkId } });
    clock.tick();
    expect(await reconcile(job, s)).toMatchObject({ settled: 0, reversed: 0 });
    expect(await f.db.ledgerEntry.count({ where: { purchaseId: purchase.id } })).toBe(1);
    expect(await reversalEntries(s)).toHaveLength(1);
    expect(await balance(s)).toBe(CREDIT / 4n);
    await expectInvariants(f.db, s);
  });

  it("reverses a partial refund in proportion to the refunded lines, then the rest when fully refunded", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    // An order of two lines (USD 2.50 and 7.50), captured while the service was down.
    const purchase = await twoLineOrder(f, s, { creditNanos: CREDIT, amountsCents: [250n, 750n] });
    expect(await reconcile(job, s)).toMatchObject({ settled: 1, reversed: 0 });
    await f.sim.control.setOrderStatus(purchase.orderId, "PartialRefund", undefined, {
      items: [{ itemid: 2, status: "Refunded" }],
      time: new Date(Date.now() + 2000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    });
    clock.tick();
    const first = await reconcile(job, s);
    expect(first).toMatchObject({ reversed: 1, reversedNanos: (CREDIT * 3n) / 4n });
    expect(await reversalOf(purchase.id)).toMatchObject({ kind: "PARTIAL_REFUND", reversedNanos: 5_250_000_000n });
    await expectInvariants(f.db, s);

    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded", undefined, {
      time: new Date(Date.now() + 3000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    });
    clock.tick();
    const second = await reconcile(job, s);
    expect(second).toMatchObject({ reversed: 1, reversedNanos: CREDIT / 4n });
    expect(await reversalOf(purchase.id)).toMatchObject({ kind: "REFUNDED", reversedNanos: CREDIT });
    const amounts = (await reversalEntries(s)).map((e) => e.amountNanos);
    expect(amounts).toHaveLength(2);
    expect(amounts).toEqual(expect.arrayContaining([-5_250_000_000n, -1_750_000_000n]));
    expect(await balance(s)).toBe(0n);
    await expectInvariants(f.db, s);
  });

  it.runIf(onPostgres)("two replicas reconciling at once reverse each purchase once", async () => {
    const s = await shop();
    const clock = testClock();
    const purchases = [];
    for (let n = 0; n < 4; n++) purchases.push(await creditedPurchase(f, s));
    for (const p of purchases) await f.sim.control.setOrderStatus(p.orderId, "Chargedback");
    const [a, b] = [replica(f, clock, { pageSize: 2 }), replica(f, clock, { pageSize: 2 })];
    const results = await Promise.all([a.runOnce(), b.runOnce()]);
    const worked = results.flat().filter((r) => r.linkId === s.linkId);
    expect(worked).toHaveLength(1);
    expect(await reversalEntries(s)).toHaveLength(4);
    await expectInvariants(f.db, s);
    await Promise.all([a.steam.close(), b.steam.close()]);
  });

  /** Two replicas reconcile the shop's link at the same moment, a page of one row at a time. */
  async function twoPassesAtOnce(s: SeededShop) {
    const clock = testClock();
    const [a, b] = [replica(f, clock), replica(f, clock)];
    const link = await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } });
    const task = {
      linkId: s.linkId,
      sandbox: false,
      publisherKeyEncrypted: link.publisherKeyEncrypted,
      createTime: link.createTime,
      leaseUntil: clock.now,
    };
    try {
      return await Promise.all([a, b].map((r) => reconcileLink(r.deps, task, { pageSize: 1 })));
    } finally {
      await Promise.all([a.steam.close(), b.steam.close()]);
    }
  }

  it.runIf(onPostgres)("two passes over one link at once (a lease overtaken) still reverse once", async () => {
    const s = await shop();
    const purchases = [];
    for (let n = 0; n < 3; n++) purchases.push(await creditedPurchase(f, s));
    for (const p of purchases) await f.sim.control.setOrderStatus(p.orderId, "Refunded");
    const reports = await twoPassesAtOnce(s);
    expect(reports.every((r) => r.drained)).toBe(true);
    expect(reports.reduce((n, r) => n + r.reversed, 0)).toBe(3);
    expect(await reversalEntries(s)).toHaveLength(3);
    expect(await balance(s)).toBe(0n);
    await expectInvariants(f.db, s);
  });

  it.runIf(onPostgres)("two passes at once credit each order the service ended FAILED once", async () => {
    const s = await shop();
    const ended = [];
    for (let n = 0; n < 3; n++) ended.push(await endedPurchase(s, "FAILED"));
    for (const p of ended) await f.sim.control.setOrderStatus(p.orderId, "Succeeded");
    const reports = await twoPassesAtOnce(s);
    expect(reports.every((r) => r.drained)).toBe(true);
    expect(reports.reduce((n, r) => n + r.settled, 0)).toBe(3);
    expect(await f.db.ledgerEntry.count({ where: { projectId: s.projectId, type: "PLAYER_TOP_UP" } })).toBe(3);
    expect(await f.db.reconciliationFinding.count({ where: { linkId: s.linkId } })).toBe(3);
    expect(await balance(s)).toBe(3n * CREDIT);
  });

  it("writes a credit from the report and the finding that says why in one transaction", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    // Finalised, then the process died before crediting.
    const ref = { publisherKey: s.publisherKey, sandbox: false, appid: s.appId, orderid: orderId };
    expect((await f.steam.finalizeTxn(ref)).kind).toBe("ok");
    // The finding's write fails: the credit must not stay without it.
    await f.db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION fail_finding() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'killed before the finding was written'; END $$ LANGUAGE plpgsql`);
    await f.db.$executeRawUnsafe(`
      CREATE TRIGGER fail_finding BEFORE INSERT ON reconciliation_findings
      FOR EACH ROW WHEN (NEW.link_id = '${s.linkId}') EXECUTE FUNCTION fail_finding()`);
    try {
      expect(await reconcile(job, s)).toBeUndefined();
      expect((await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).creditTime).toBeNull();
      expect(await f.db.ledgerEntry.count({ where: { purchaseId: purchase } })).toBe(0);
      expect(await balance(s)).toBe(0n);
      await expectInvariants(f.db, s);
    } finally {
      await f.db.$executeRawUnsafe("DROP TRIGGER fail_finding ON reconciliation_findings");
    }
    clock.tick();
    expect(await reconcile(job, s)).toMatchObject({ settled: 1 });
    expect(await f.db.reconciliationFinding.findMany({ where: { purchaseId: purchase } })).toMatchObject([
      { kind: "CREDITED_FROM_REPORT", reportStatus: "Succeeded" },
    ]);
    expect(await f.db.ledgerEntry.count({ where: { purchaseId: purchase } })).toBe(1);
    expect(await balance(s)).toBe(CREDIT);
  });

  it("a pass killed between the ledger write and the cursor leaves neither; the next converges", async () => {
    const s = await shop();
    const clock = testClock();
    const job = replica(f, clock);
    const purchase = await creditedPurchase(f, s);
    await job.runOnce();
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded");
    // The cursor's write fails after the page's reversal and ledger entry were written.
    await f.db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION fail_cursor() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'killed before the cursor moved'; END $$ LANGUAGE plpgsql`);
    await f.db.$executeRawUnsafe(`
      CREATE TRIGGER fail_cursor BEFORE UPDATE ON reconciliation_cursors
      FOR EACH ROW WHEN (NEW.link_id = '${s.linkId}') EXECUTE FUNCTION fail_cursor()`);
    try {
      clock.tick();
      expect(await reconcile(job, s)).toBeUndefined();
      expect(await reversalOf(purchase.id)).toBeNull();
      expect(await reversalEntries(s)).toHaveLength(0);
      expect(await balance(s)).toBe(CREDIT);
      await expectInvariants(f.db, s);
    } finally {
      await f.db.$executeRawUnsafe("DROP TRIGGER fail_cursor ON reconciliation_cursors");
    }
    // The failed pass kept its lease; once it runs out the next pass applies the page.
    clock.tick();
    const result = await reconcile(job, s);
    expect(result).toMatchObject({ reversed: 1 });
    expect(await reversalEntries(s)).toHaveLength(1);
    expect(await balance(s)).toBe(0n);
    await expectInvariants(f.db, s);
  });

  it("reconciles a sandbox link against the sandbox interface and moves no money", async () => {
    const s = await seed({ sandbox: true, offer: { priceNanos: 10n * DOLLAR, creditNanos: CREDIT } });
    const job = replica(f, testClock());
    const purchase = await creditedPurchase(f, s, { sandbox: true });
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded", { sandbox: true });
    await f.sim.control.clearCalls();
    const result = await reconcile(job, s);
    expect(result).toMatchObject({ reversed: 1, reversedNanos: 0n });
    expect(await reversalOf(purchase.id)).toMatchObject({ kind: "REFUNDED", reversedNanos: 0n });
    const calls = await f.sim.control.listCalls({ call: "GetReport" });
    expect(calls.every((c) => c.iface === "sandbox")).toBe(true);
    expect(await f.db.ledgerEntry.count({ where: { projectId: s.projectId } })).toBe(0);
    expect(await balance(s)).toBe(0n);
    const link = await f.db.distributorLink.findUniqueOrThrow({ where: { id: s.linkId } });
    expect(link).toMatchObject({ issuedNanos: 0n, reversedNanos: 0n, outstandingNanos: 0n });
    await expectInvariants(f.db, s);
  });
});
