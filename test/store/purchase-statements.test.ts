import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spendWindow } from "../../src/domain/funding.js";
import { claimFinalize } from "../../src/store/finalize-leases.js";
import { type Db, openDatabase } from "../../src/store/open-database.js";
import { findPublicCampaign } from "../../src/store/public-campaigns.js";
import {
  creditPurchase,
  endPurchase,
  findPurchase,
  recordInitTxnEnds,
  recordTransId,
} from "../../src/store/purchases.js";
import { DOLLAR, type SeedCampaignOptions, seedCampaign, seedOffer, seedUsage } from "../support/seed.js";
import { readMoney, seedPurchase } from "../support/seed-purchases.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// Statements of the purchase path that do more than they seem to, to save a round trip
// or a wait.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const prisma = () => db.database.prisma;
const NOW = new Date("2026-11-26T12:00:00.000Z");

/** A campaign with a purchase of `credit` reserved on its link, ready to be credited. */
async function reservedPurchase(options: SeedCampaignOptions, credit: bigint) {
  const campaign = await seedCampaign(prisma(), { reservedNanos: credit, ...options });
  const offerId = await seedOffer(prisma(), campaign.campaignId, { priceNanos: 2n * credit, creditNanos: credit });
  const purchaseId = await seedPurchase(prisma(), campaign, offerId, {
    priceNanos: 2n * credit,
    creditNanos: credit,
    sandbox: options.sandbox ?? false,
    state: "AUTHORIZED",
    createTime: new Date(NOW.getTime() - 60_000),
  });
  return { ...campaign, purchaseId };
}

describe("the one-statement credit", () => {
  it("answers the campaign's public facts as a read right after it finds them: balance, week's usage, link amounts", async () => {
    const credit = 3n * DOLLAR;
    const shop = await reservedPurchase(
      {
        balanceNanos: 9_007_199_254_740_993n,
        outstandingNanos: 5n * DOLLAR,
        outstandingLimitNanos: 8n * DOLLAR,
      },
      credit,
    );
    await seedUsage(prisma(), shop.projectId, 7n * DOLLAR, new Date(NOW.getTime() - 86_400_000));
    // Outside the week: not in the usage the facts sum.
    await seedUsage(prisma(), shop.projectId, 100n * DOLLAR, new Date(NOW.getTime() - 9 * 86_400_000));

    const result = await creditPurchase(prisma(), shop.purchaseId, NOW);
    const after = await findPublicCampaign(prisma(), shop.campaignKey, spendWindow(NOW));

    expect(result).toEqual({ credited: true, fundingAfter: after });
    expect(after).toMatchObject({
      balanceNanos: 9_007_199_254_740_993n + credit,
      sevenDaySpendNanos: 7n * DOLLAR,
      outstandingNanos: 8n * DOLLAR,
      reservedNanos: 0n,
      outstandingLimitNanos: 8n * DOLLAR,
    });
  });

  it("answers no facts when it did not credit (another caller did) or moved no money (sandbox)", async () => {
    const shop = await reservedPurchase({ balanceNanos: DOLLAR }, DOLLAR);
    expect(await creditPurchase(prisma(), shop.purchaseId, NOW)).toMatchObject({ credited: true });
    expect(await creditPurchase(prisma(), shop.purchaseId, NOW)).toEqual({ credited: false });

    const sandbox = await reservedPurchase({ sandbox: true, balanceNanos: DOLLAR }, DOLLAR);
    expect(await creditPurchase(prisma(), sandbox.purchaseId, NOW)).toEqual({ credited: true });
  });
});

describe("abandoning a begin's attempt whose order never reached the platform", () => {
  // A repeated begin ends it FAILED and frees its requestId for a fresh order, in one statement,
  // only while no caller has found the order (recorded its transaction id) meanwhile.
  it("frees the requestId only with the attempt it ended", async () => {
    const shop = await reservedPurchase({}, DOLLAR);
    await prisma().purchase.update({ where: { id: shop.purchaseId }, data: { state: "INITIATED" } });
    const request = { campaignId: shop.campaignId, requestId: "abandoned-1" };
    await prisma().purchaseRequest.create({ data: { ...request, playerId: "p", purchaseId: shop.purchaseId } });
    const abandon = () =>
      endPurchase(prisma(), {
        purchaseId: shop.purchaseId,
        to: "FAILED",
        now: NOW,
        guard: "unconfirmed",
        freeRequest: request,
      });

    await recordTransId(prisma(), shop.purchaseId, "9000000008");
    expect(await abandon()).toBe(false);
    const requestKey = { campaignId_requestId: request };
    expect(await prisma().purchaseRequest.findUnique({ where: requestKey })).not.toBeNull();
    expect(await readMoney(prisma(), shop)).toMatchObject({ reservedNanos: DOLLAR });

    await prisma().purchase.update({ where: { id: shop.purchaseId }, data: { transId: null } });
    expect(await abandon()).toBe(true);
    expect(await prisma().purchaseRequest.findUnique({ where: requestKey })).toBeNull();
    expect(await readMoney(prisma(), shop)).toMatchObject({ reservedNanos: 0n });
  });
});

describe("recording the platform's transaction id", () => {
  it("records it once, and other connections see it as soon as it returns", async () => {
    const shop = await reservedPurchase({}, DOLLAR);
    await recordTransId(prisma(), shop.purchaseId, "9000000001");
    await recordTransId(prisma(), shop.purchaseId, "9000000002");
    expect((await findPurchase(prisma(), shop.purchaseId))?.transId).toBe("9000000001");
  });

  it("rides on the capture lease, which keeps one recorded before", async () => {
    const shop = await reservedPurchase({}, DOLLAR);
    expect((await findPurchase(prisma(), shop.purchaseId))?.transId).toBeNull();
    const lease = await claimFinalize(prisma(), {
      purchaseId: shop.purchaseId,
      transId: "9000000004",
      now: NOW,
      leaseMs: 1,
    });
    expect(lease).toBeDefined();
    expect((await findPurchase(prisma(), shop.purchaseId))?.transId).toBe("9000000004");

    const recorded = await reservedPurchase({}, DOLLAR);
    await recordTransId(prisma(), recorded.purchaseId, "9000000005");
    await claimFinalize(prisma(), { purchaseId: recorded.purchaseId, transId: "9000000006", now: NOW, leaseMs: 1 });
    expect((await findPurchase(prisma(), recorded.purchaseId))?.transId).toBe("9000000005");
  });
});

// Writes the service survives losing in a database crash commit without waiting for their WAL
// flush (UNHURRIED_COMMIT); that must end with their own statement, or every later transaction on
// the connection (a credit) would commit that way too. Others must see them at once all the same.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("writes committed without waiting for their flush", () => {
  const writes = {
    "the transaction id": async (client: Db, purchaseId: string) => {
      await recordTransId(client, purchaseId, "9000000003");
      return async () => expect((await findPurchase(prisma(), purchaseId))?.transId).toBe("9000000003");
    },
    "the capture lease (AUTHORIZED)": async (client: Db, purchaseId: string) => {
      const lease = await claimFinalize(client, { purchaseId, transId: "9000000007", now: NOW, leaseMs: 60_000 });
      expect(lease).toBeDefined();
      // Seen from another connection at once: a second caller is refused the lease.
      return async () =>
        expect(
          await claimFinalize(prisma(), { purchaseId, transId: "9000000007", now: NOW, leaseMs: 60_000 }),
        ).toBeUndefined();
    },
  };
  it.each(Object.entries(writes))(
    "%s: seen at once, and the connection commits synchronously after it",
    async (_, write) => {
      if (db.target.kind !== "postgres") throw new Error("PostgreSQL only");
      const one = await openDatabase({ ...db.target, poolSize: 1 });
      try {
        const shop = await reservedPurchase({}, DOLLAR);
        const seen = await write(one.prisma, shop.purchaseId);
        const setting = await one.prisma.$queryRaw`SELECT current_setting('synchronous_commit') AS value`;
        expect(setting).toEqual([{ value: "on" }]);
        await seen();
      } finally {
        await one.close();
      }
    },
  );
});

describe("the InitTxn ends of concurrent begins, in one statement", () => {
  it("records each purchase's own end, keeping a transaction id or approval page recorded before", async () => {
    const shop = await seedCampaign(prisma(), {});
    const offerId = await seedOffer(prisma(), shop.campaignId, {});
    const [opened, unanswered, web, known] = await Promise.all(
      [0, 1, 2, 3].map(() => seedPurchase(prisma(), shop, offerId, { state: "INITIATED" })),
    );
    await prisma().purchase.update({
      where: { id: known as string },
      data: { transId: "first", steamUrl: "https://checkout.steampowered.com/first" },
    });
    const ends = [
      { purchaseId: opened as string, transId: "71", now: NOW },
      { purchaseId: unanswered as string, transId: null, now: new Date(NOW.getTime() + 1) },
      { purchaseId: web as string, transId: "73", steamUrl: "https://checkout.steampowered.com/73", now: NOW },
      { purchaseId: known as string, transId: "74", steamUrl: "https://checkout.steampowered.com/74", now: NOW },
    ];

    await recordInitTxnEnds(prisma(), ends);

    const rows = await prisma().purchase.findMany({
      where: { id: { in: ends.map((end) => end.purchaseId) } },
      select: { id: true, transId: true, steamUrl: true, initTxnEndTime: true },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(opened as string)).toMatchObject({ transId: "71", steamUrl: null, initTxnEndTime: NOW });
    expect(byId.get(unanswered as string)).toMatchObject({
      transId: null,
      initTxnEndTime: new Date(NOW.getTime() + 1),
    });
    expect(byId.get(web as string)).toMatchObject({ transId: "73", steamUrl: "https://checkout.steampowered.com/73" });
    expect(byId.get(known as string)).toMatchObject({
      transId: "first",
      steamUrl: "https://checkout.steampowered.com/first",
      initTxnEndTime: NOW,
    });
  });
});
