import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spendWindow } from "../../src/domain/funding.js";
import { findPublicCampaign } from "../../src/store/public-campaigns.js";
import { creditPurchase } from "../../src/store/purchases.js";
import { DOLLAR, type SeedCampaignOptions, seedCampaign, seedOffer, seedUsage } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// Issue 14: the common credit answers the campaign's public facts as it left them, so complete
// answers the funding after the purchase without a read of its own. They must be what a read
// right after the credit finds.
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
  const purchaseId = randomUUID();
  await prisma().purchase.create({
    data: {
      id: purchaseId,
      campaignId: campaign.campaignId,
      offerId,
      linkId: campaign.linkId,
      orderId: BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000)),
      playerId: "76561197960287930",
      priceNanos: 2n * credit,
      creditNanos: credit,
      sandbox: options.sandbox ?? false,
      language: "en",
      state: "AUTHORIZED",
      createTime: new Date(NOW.getTime() - 60_000),
    },
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
