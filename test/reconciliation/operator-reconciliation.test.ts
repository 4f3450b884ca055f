// The operator's side: reconciliation on demand (OperatorService and npm run admin),
// and reversal totals and rates per link, flagged past the threshold.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService, ReconciliationFinding_Kind } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { ADMIN_CLI_ENTRY, ROOT } from "../support/built-entries.js";
import { DOLLAR } from "../support/seed.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { TEST_OPERATOR_TOKEN } from "../support/test-server.js";
import { creditedPurchase, expectInvariants, invariantCheckedShops } from "./reconciliation-fixture.js";

const run = promisify(execFile);

describe("the operator and reconciliation", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture({ REVERSAL_FLAG_RATE_PERCENT: "20" });
  });
  afterAll(() => f.close());

  const operator = () => f.server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  // Every shop a scenario seeds has its invariants asserted after the scenario.
  const seed = invariantCheckedShops(() => f);
  const shop = () => seed({ offer: { priceNanos: 10n * DOLLAR, creditNanos: 7n * DOLLAR } });
  const linkName = (s: SeededShop) => `accounts/${s.accountId}/distributorLinks/${s.linkId}`;
  const admin = (...args: string[]) =>
    run(process.execPath, [ADMIN_CLI_ENTRY, ...args], {
      cwd: ROOT,
      env: { ...process.env, ENCORE_URL: f.server.baseUrl, OPERATOR_TOKEN: TEST_OPERATOR_TOKEN },
    });

  /** The operator's reversal listing of one link, read through every page. */
  const linkReversalsOf = async (s: SeededShop) => {
    for (let token = ""; ; ) {
      const page = await operator().listLinkReversals({ pageSize: 1000, pageToken: token });
      const found = page.linkReversals.find((l) => l.link === linkName(s));
      if (found || !page.nextPageToken) return found;
      token = page.nextPageToken;
    }
  };

  it("reconciles a link on demand, over Connect and REST; a second pass records nothing new", async () => {
    const s = await shop();
    const purchase = await creditedPurchase(f, s);
    await f.sim.control.setOrderStatus(purchase.orderId, "Chargedback");
    const pass = await operator().reconcileDistributorLink({ name: linkName(s) });
    expect(pass).toMatchObject({
      link: linkName(s),
      reversed: 1,
      reversedCredit: { currencyCode: "USD", units: 7n, nanos: 0 },
      settled: 0,
      drained: true,
      stoppedBecause: "",
    });
    const again = await f.server.rest(
      "POST",
      `/v1/operator/${linkName(s)}:reconcile`,
      {},
      {
        authorization: `Bearer ${TEST_OPERATOR_TOKEN}`,
      },
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ reversed: 0, drained: true, reversedCredit: { units: "0" } });
    await expectInvariants(f.db, s);
  });

  it("is NOT_FOUND for an unknown link, ABORTED while another pass holds it", async () => {
    const s = await shop();
    const missing = operator().reconcileDistributorLink({ name: `accounts/${s.accountId}/distributorLinks/nope` });
    await expect(missing).rejects.toMatchObject({ code: Code.NotFound });
    await f.db.distributorLink.update({
      where: { id: s.linkId },
      data: { reconcileLeaseUntil: new Date(Date.now() + 60_000) },
    });
    const held = await operator()
      .reconcileDistributorLink({ name: linkName(s) })
      .then(() => undefined)
      .catch((error: unknown) => ConnectError.from(error));
    expect(held).toMatchObject({ code: Code.Aborted });
    expect(held?.findDetails(ErrorInfoSchema)).toMatchObject([{ reason: "RECONCILIATION_RUNNING" }]);
  });

  it("lists reversal totals and rates per link and flags the link past the threshold", async () => {
    const refunded = await shop();
    const clean = await shop();
    const lost = await creditedPurchase(f, refunded);
    await creditedPurchase(f, refunded);
    await creditedPurchase(f, clean);
    await f.sim.control.setOrderStatus(lost.orderId, "RefundedFriendlyFraud");
    await operator().reconcileDistributorLink({ name: linkName(refunded) });
    await operator().reconcileDistributorLink({ name: linkName(clean) });

    const all = [];
    for (let token = ""; ; ) {
      const page = await operator().listLinkReversals({ pageSize: 50, pageToken: token });
      expect(page).toMatchObject({ windowDays: 30, flagRatePercent: 20 });
      all.push(...page.linkReversals);
      token = page.nextPageToken;
      if (!token) break;
    }
    expect(all.find((l) => l.link === linkName(refunded))).toMatchObject({
      issued: { units: 14n },
      reversed: { units: 7n },
      windowIssued: { units: 14n },
      windowReversed: { units: 7n },
      windowReversalCount: 1n,
      windowReversalRateBps: 5000n,
      flagged: true,
    });
    expect(all.find((l) => l.link === linkName(clean))).toMatchObject({
      windowReversalRateBps: 0n,
      flagged: false,
    });
    const flagged = await operator().listLinkReversals({ flaggedOnly: true, pageSize: 1000 });
    expect(flagged.linkReversals.map((l) => l.link)).toContain(linkName(refunded));
    expect(flagged.linkReversals.map((l) => l.link)).not.toContain(linkName(clean));

    const { stdout } = await admin("list-link-reversals", "--flagged", "--page-size", "1000");
    expect(stdout).toContain("over 30 days, flagged at 20%:");
    expect(stdout).toContain(`FLAGGED ${linkName(refunded)}`);
    expect(stdout).toContain("7.00 USD of 14.00 USD reversed (50.00%, 1 purchases)");
    expect(stdout).not.toContain(linkName(clean));
    await expectInvariants(f.db, refunded);
  });

  it("counts and sums a window's reversals by one definition: the credit taken back within it", async () => {
    // A sandbox reversal is recorded but takes nothing back: no credit reversed, no reversal
    // counted, in the window or ever.
    const s = await seed({ sandbox: true, offer: { priceNanos: 10n * DOLLAR, creditNanos: 7n * DOLLAR } });
    const purchase = await creditedPurchase(f, s, { sandbox: true });
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded", { sandbox: true });
    expect(await operator().reconcileDistributorLink({ name: linkName(s) })).toMatchObject({ reversed: 1 });
    expect(await f.db.purchaseReversal.count({ where: { linkId: s.linkId } })).toBe(1);
    expect(await linkReversalsOf(s)).toMatchObject({
      sandbox: true,
      reversed: { units: 0n, nanos: 0 },
      windowReversed: { units: 0n, nanos: 0 },
      windowReversalCount: 0n,
      windowReversalRateBps: 0n,
      flagged: false,
    });
  });

  it("counts credit added from the report to a FAILED purchase as issued over the window", async () => {
    const s = await shop();
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.expireOrder(orderId);
    await f.complete({ campaignKey: s.campaignKey, purchase, orderId, authorized: true });
    await f.sim.control.setOrderStatus(orderId, "Succeeded");
    expect(await operator().reconcileDistributorLink({ name: linkName(s) })).toMatchObject({
      settled: 1,
      mismatches: 1,
    });
    expect(await linkReversalsOf(s)).toMatchObject({
      issued: { units: 7n },
      windowIssued: { units: 7n },
      windowReversalCount: 0n,
    });
    const found = await operator().listReconciliationFindings({ link: linkName(s) });
    expect(found.reconciliationFindings).toMatchObject([
      { kind: ReconciliationFinding_Kind.CREDITED_FROM_REPORT, detail: expect.stringContaining("stays FAILED") },
    ]);
  });

  /** An order Steam settled whose credit the service never wrote (the process died after FinalizeTxn). */
  const settledUncredited = async (s: SeededShop) => {
    const player = await f.player(s);
    const begun = await f.begin({ campaignKey: s.campaignKey, offerId: s.offerId, authTicket: player.ticket });
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    const ref = { publisherKey: s.publisherKey, sandbox: false, appid: s.appId, orderid: orderId };
    expect((await f.steam.finalizeTxn(ref)).kind).toBe("ok");
    return `accounts/${s.accountId}/campaigns/${s.campaignId}/purchases/${purchase}`;
  };

  it("lists reconciliation findings of a link, paged, over Connect, REST and npm run admin", async () => {
    const s = await shop();
    const other = await shop();
    const first = await settledUncredited(s);
    const second = await settledUncredited(s);
    const elsewhere = await settledUncredited(other);
    expect(await operator().reconcileDistributorLink({ name: linkName(s) })).toMatchObject({ settled: 2 });
    expect(await operator().reconcileDistributorLink({ name: linkName(other) })).toMatchObject({ settled: 1 });

    const one = await operator().listReconciliationFindings({ link: linkName(s), pageSize: 1 });
    expect(one.reconciliationFindings).toHaveLength(1);
    expect(one.nextPageToken).not.toBe("");
    const two = await operator().listReconciliationFindings({
      link: linkName(s),
      pageSize: 1,
      pageToken: one.nextPageToken,
    });
    const found = [...one.reconciliationFindings, ...two.reconciliationFindings];
    expect(found.map((x) => x.purchase).sort()).toEqual([first, second].sort());
    expect(found[0]).toMatchObject({
      link: linkName(s),
      kind: ReconciliationFinding_Kind.CREDITED_FROM_REPORT,
      reportStatus: "Succeeded",
      detail: expect.any(String),
    });
    expect(found[0]?.createTime).toBeDefined();
    const last = await operator().listReconciliationFindings({
      link: linkName(s),
      pageSize: 1,
      pageToken: two.nextPageToken,
    });
    expect(two.nextPageToken === "" || last.reconciliationFindings.length === 0).toBe(true);

    // Unfiltered, the other link's finding is there too; a token of one filter is refused by another.
    const all = [];
    for (let token = ""; ; ) {
      const page = await operator().listReconciliationFindings({ pageSize: 1000, pageToken: token });
      all.push(...page.reconciliationFindings);
      token = page.nextPageToken;
      if (!token) break;
    }
    expect(all.map((x) => x.purchase)).toEqual(expect.arrayContaining([first, second, elsewhere]));
    await expect(
      operator().listReconciliationFindings({ link: linkName(other), pageToken: one.nextPageToken }),
    ).rejects.toMatchObject({ code: Code.InvalidArgument });
    await expect(operator().listReconciliationFindings({ link: "links/x" })).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
    await expect(
      operator().listReconciliationFindings({ link: `accounts/${s.accountId}/distributorLinks/nope` }),
    ).rejects.toMatchObject({ code: Code.NotFound });

    const rest = await f.server.rest(
      "GET",
      `/v1/operator/reconciliationFindings?link=${encodeURIComponent(linkName(other))}`,
      undefined,
      { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    );
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      reconciliationFindings: [{ purchase: elsewhere, link: linkName(other), kind: "KIND_CREDITED_FROM_REPORT" }],
    });

    const { stdout } = await admin("list-reconciliation-findings", "--link", linkName(other));
    expect(stdout).toContain(`CREDITED_FROM_REPORT ${elsewhere} (report: Succeeded)`);
    await expectInvariants(f.db, s);
    await expectInvariants(f.db, other);
  });

  it("npm run admin -- reconcile-link prints what the pass did", async () => {
    const s = await shop();
    const purchase = await creditedPurchase(f, s);
    await f.sim.control.setOrderStatus(purchase.orderId, "Refunded");
    const { stdout } = await admin("--json", "reconcile-link", "--link", linkName(s));
    expect(JSON.parse(stdout)).toMatchObject({ link: linkName(s), reversed: 1, drained: true });
    await expectInvariants(f.db, s);
  });
});
