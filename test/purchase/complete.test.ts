import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { CompletePurchaseRequestSchema } from "../../gen/encore/campaign/v1/public_pb.js";
import { Purchase_State } from "../../gen/encore/campaign/v1/purchase_pb.js";
import { Prisma } from "../../gen/prisma/client.js";
import { createCompletePurchase } from "../../src/services/campaign/purchases/complete-purchase.js";
import { createBegunPurchases } from "../../src/usecases/begin/begun-purchases.js";
import { DOLLAR, seedUsage } from "../support/seed.js";
import { readMoney } from "../support/seed-purchases.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

describe("POST /v1/public/purchases:complete", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture();
  });
  afterAll(() => f.close());

  async function begun(options: Parameters<PurchaseFixture["shop"]>[0] = {}) {
    const shop = await f.shop({ balanceNanos: 10n * DOLLAR, ...options });
    const player = await f.player(shop);
    const res = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(res.status).toBe(200);
    const { purchase, orderId } = res.body as { purchase: string; orderId: string };
    const complete = (authorized: boolean) =>
      f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized });
    return { shop, player, purchase, orderId, complete };
  }

  it("credits an approved order once: ledger, balance, outstanding up, reserved down, funding embedded", async () => {
    const { shop, orderId, purchase, complete } = await begun({
      offer: { priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR },
    });
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR, outstandingNanos: 0n });
    await f.sim.control.approveOrder(orderId);
    const res = await complete(true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      state: "STATE_CREDITED",
      funding: {
        funded: true,
        balance: { currencyCode: "USD", units: "13", nanos: 0 },
        visibility: "FUNDING_VISIBILITY_EXACT_BALANCE",
        purchasable: true,
        unavailableReason: "",
      },
    });
    expect(await readMoney(f.db, shop)).toEqual({
      outstandingNanos: 3n * DOLLAR,
      reservedNanos: 0n,
      linkState: "ACTIVE",
      balanceNanos: 13n * DOLLAR,
      ledger: [{ purchaseId: purchase, amountNanos: 3n * DOLLAR }],
    });
    const row = await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } });
    expect(row.state).toBe("CREDITED");
    expect(row.creditTime).not.toBeNull();
    expect((await f.sim.control.getOrder(orderId))?.status).toBe("Succeeded");
  });

  it("embeds the funding the credit left, as funding:get answers it right after: runway, limit reached", async () => {
    // The credit fills the link to its limit: no further purchase fits (PUBLISHER_LIMIT_REACHED).
    const { shop, orderId, complete } = await begun({
      outstandingLimitNanos: 3n * DOLLAR,
      offer: { priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR },
    });
    await seedUsage(f.db, shop.projectId, 7n * DOLLAR, new Date(Date.now() - 86_400_000));
    await f.sim.control.approveOrder(orderId);
    const res = await complete(true);
    expect(res.body.funding).toEqual({
      funded: true,
      balance: { currencyCode: "USD", units: "13", nanos: 0 },
      // 13 dollars at 7 a week.
      runwayDays: "13",
      visibility: "FUNDING_VISIBILITY_EXACT_BALANCE",
      purchasable: false,
      unavailableReason: "PUBLISHER_LIMIT_REACHED",
    });
    const read = await f.server.rest("POST", "/v1/public/funding:get", { campaignKey: shop.campaignKey });
    expect(read.body).toEqual(res.body.funding);
  });

  it("answers the purchase with no funding when the funding after it cannot be read (spec 4.4)", async () => {
    const { shop, purchase, orderId, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    // A repeated complete did not credit, so it reads the funding after; here that read fails.
    const db = f.deps().db;
    const unreadableFunding = new Proxy(db, {
      get(target, property) {
        if (property === "$queryRaw")
          // Called with a Prisma.Sql, or as a tagged template.
          return (query: Prisma.Sql | TemplateStringsArray, ...values: unknown[]) => {
            const sql = "text" in query ? query : Prisma.sql(query, ...values);
            return sql.text.includes("seven_day_usage_nanos")
              ? Promise.reject(new Error("the funding read failed"))
              : target.$queryRaw(sql);
          };
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const completePurchase = createCompletePurchase(
      f.deps({ db: unreadableFunding }),
      createBegunPurchases({ max: 1, ttlMs: 60_000 }),
    );
    const answer = await completePurchase(
      create(CompletePurchaseRequestSchema, {
        campaignKey: shop.campaignKey,
        purchase,
        orderId: BigInt(orderId),
        authorized: true,
      }),
    );
    expect(answer.state).toBe(Purchase_State.CREDITED);
    expect(answer.funding).toBeUndefined();
  });

  it("answers INITIATED for authorized:false while the decline is not confirmed, and CANCELLED once it is", async () => {
    const { shop, orderId, complete } = await begun();
    expect((await complete(false)).body.state).toBe("STATE_INITIATED");
    await f.sim.control.declineOrder(orderId);
    const res = await complete(false);
    expect(res.body.state).toBe("STATE_CANCELLED");
    expect(await readMoney(f.db, shop)).toMatchObject({
      reservedNanos: 0n,
      outstandingNanos: 0n,
      balanceNanos: 10n * DOLLAR,
      ledger: [],
    });
  });

  it("takes authorized only as a hint: the platform's answer decides", async () => {
    const pending = await begun();
    expect((await pending.complete(true)).body.state).toBe("STATE_INITIATED");
    const approved = await begun();
    await f.sim.control.approveOrder(approved.orderId);
    expect((await approved.complete(false)).body.state).toBe("STATE_CREDITED");
    expect((await readMoney(f.db, approved.shop)).ledger).toHaveLength(1);
  });

  it("ends FAILED with nothing credited when the platform did not complete the order", async () => {
    const expired = await begun();
    await f.sim.control.expireOrder(expired.orderId);
    expect((await expired.complete(true)).body.state).toBe("STATE_FAILED");
    expect(await readMoney(f.db, expired.shop)).toMatchObject({ reservedNanos: 0n, outstandingNanos: 0n, ledger: [] });
    const refunded = await begun();
    await f.sim.control.setOrderStatus(refunded.orderId, "Refunded");
    expect((await refunded.complete(true)).body.state).toBe("STATE_FAILED");
    expect(await readMoney(f.db, refunded.shop)).toMatchObject({ reservedNanos: 0n, ledger: [] });
  });

  it("answers AUTHORIZED while approved but not settled, then CREDITED on a repeated complete", async () => {
    const { shop, orderId, purchase, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "http5xx", status: 503 });
    expect((await complete(true)).body.state).toBe("STATE_AUTHORIZED");
    expect(await readMoney(f.db, shop)).toMatchObject({ outstandingNanos: 0n, ledger: [] });
    // An unanswered FinalizeTxn keeps its capture lease until it runs out (docs/settlement.md).
    await f.endFinalizeLease(purchase);
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  it("credits once when FinalizeTxn captured but its reply was lost", async () => {
    const { shop, orderId, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "resetAfterCommit" });
    expect((await complete(true)).body.state).toBe("STATE_AUTHORIZED");
    expect((await f.sim.control.getOrder(orderId))?.status).toBe("Succeeded");
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  it("is idempotent: a repeated complete answers the final state without asking the platform again", async () => {
    const { shop, orderId, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    const first = await complete(true);
    await f.sim.control.clearCalls();
    for (let i = 0; i < 3; i++) expect((await complete(true)).body).toEqual(first.body);
    expect(await f.sim.control.listCalls()).toEqual([]);
    expect((await readMoney(f.db, shop)).ledger).toHaveLength(1);
  });

  it("never changes a final state", async () => {
    const { shop, orderId, complete } = await begun();
    await f.sim.control.declineOrder(orderId);
    expect((await complete(false)).body.state).toBe("STATE_CANCELLED");
    await f.sim.control.setOrderStatus(orderId, "Succeeded");
    expect((await complete(true)).body.state).toBe("STATE_CANCELLED");
    expect(await readMoney(f.db, shop)).toMatchObject({ outstandingNanos: 0n, reservedNanos: 0n, ledger: [] });
  });

  it("answers 404 code 5 for an unknown handle, another campaign's key or a wrong orderId", async () => {
    const { shop, purchase, orderId } = await begun();
    const other = await f.shop();
    for (const body of [
      { campaignKey: shop.campaignKey, purchase: "00000000-0000-4000-8000-000000000000", orderId, authorized: true },
      { campaignKey: other.campaignKey, purchase, orderId, authorized: true },
      { campaignKey: shop.campaignKey, purchase, orderId: (BigInt(orderId) + 1n).toString(), authorized: true },
    ]) {
      const res = await f.complete(body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 5 });
    }
  });

  it("refuses a missing authorized flag with 400 code 3", async () => {
    const { shop, purchase, orderId } = await begun();
    const res = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(3);
  });

  it("answers 503 code 14 and writes nothing when the platform does not answer", async () => {
    const { shop, purchase, orderId, complete } = await begun();
    await f.sim.control.approveOrder(orderId);
    // Reads are retried twice inside one call: fail all three attempts.
    await f.sim.control.injectFault({ call: "QueryTxn", kind: "http5xx", status: 500, times: 3 });
    const res = await complete(true);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 14 });
    expect((await f.db.purchase.findUniqueOrThrow({ where: { id: purchase } })).state).toBe("INITIATED");
    expect(await readMoney(f.db, shop)).toMatchObject({ reservedNanos: 3n * DOLLAR, outstandingNanos: 0n, ledger: [] });
    expect((await complete(true)).body.state).toBe("STATE_CREDITED");
  });

  it("runs a sandbox purchase against the sandbox book, ends CREDITED and moves no money", async () => {
    const { shop, orderId, complete } = await begun({ sandbox: true, outstandingLimitNanos: 0n });
    await f.sim.control.approveOrder(orderId, { sandbox: true });
    const res = await complete(true);
    expect(res.body.state).toBe("STATE_CREDITED");
    expect(res.body.funding.balance).toEqual({ currencyCode: "USD", units: "10", nanos: 0 });
    expect(await readMoney(f.db, shop)).toMatchObject({
      outstandingNanos: 0n,
      reservedNanos: 0n,
      balanceNanos: 10n * DOLLAR,
      ledger: [],
    });
    const calls = await f.sim.control.listCalls();
    const microTxn = calls.filter((call) => call.params.orderid === orderId);
    expect(microTxn.map((call) => `${call.iface}/${call.call}`)).toEqual([
      "sandbox/InitTxn",
      "sandbox/QueryTxn",
      "sandbox/FinalizeTxn",
    ]);
    expect(microTxn.every((call) => call.path.startsWith("/ISteamMicroTxnSandbox/"))).toBe(true);
  });

  it.each(["connect", "grpc", "grpc-web"] as const)("begins and completes over %s", async (protocol) => {
    const shop = await f.shop();
    const player = await f.player(shop);
    const client = f.server.client(CampaignService, protocol);
    const begun = await client.beginPurchase({
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
    });
    await f.sim.control.approveOrder(begun.orderId.toString());
    const done = await client.completePurchase({
      campaignKey: shop.campaignKey,
      purchase: begun.purchase,
      orderId: begun.orderId,
      authorized: true,
    });
    expect(done.state).toBe(Purchase_State.CREDITED);
    expect(done.funding?.funded).toBe(true);
    await expect(
      client.completePurchase({
        campaignKey: shop.campaignKey,
        purchase: "nope",
        orderId: begun.orderId,
        authorized: true,
      }),
    ).rejects.toMatchObject({ code: 5 });
  });
});
