import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spendWindow } from "../../src/domain/funding.js";
import { type Database, openDatabase } from "../../src/store/open-database.js";
import { findPublicCampaign } from "../../src/store/public-campaigns.js";
import { findBeginFacts, openPurchase } from "../../src/store/purchase-opening.js";
import { creditPurchase } from "../../src/store/purchases.js";
import { DOLLAR, seedCampaign, seedOffer } from "../support/seed.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// PostgreSQL plans a named statement for its first five runs, then keeps a generic plan
// only if it does not look costlier than those. A hot statement that stayed on custom plans would
// be planned at every call, some of the CPU a purchase or a read costs, with no error to see.
// (Fails with plan_cache_mode = force_custom_plan on the connection.)

const RUNS = 8;

describe("the hot statements' plans", () => {
  let db: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    // One connection, so every run of a statement lands where pg_prepared_statements is read.
    if (onPostgres(db))
      database = await openDatabase({ ...(db.target as { kind: "postgres"; url: string }), poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await db.drop();
  });

  it("are generic after their first runs: the public read, a begin's facts and opening, the credit", async (context) => {
    if (!onPostgres(db)) context.skip();
    const { prisma } = database;
    const shop = await seedCampaign(prisma);
    const offerId = await seedOffer(prisma, shop.campaignId, { priceNanos: DOLLAR, creditNanos: DOLLAR });
    const now = new Date();
    for (let run = 0; run < RUNS; run++) {
      expect(await findPublicCampaign(prisma, shop.campaignKey, spendWindow(now))).toBeDefined();
      expect(await findBeginFacts(prisma, shop.campaignKey, offerId, randomUUID())).toBeDefined();
      const purchaseId = randomUUID();
      const opened = await openPurchase(prisma, {
        purchaseId,
        campaignId: shop.campaignId,
        offerId,
        linkId: shop.linkId,
        orderId: BigInt(run + 1),
        playerId: "76561198000000001",
        priceNanos: DOLLAR,
        creditNanos: DOLLAR,
        sandbox: false,
        language: "en",
        channel: "GAME",
        requestId: randomUUID(),
        now,
      });
      expect(opened).toBe("opened");
      expect(await creditPurchase(prisma, purchaseId, now)).toMatchObject({ credited: true });
    }

    const plans = await prisma.$queryRaw<{ statement: string; generic_plans: bigint; custom_plans: bigint }[]>`
      SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`;
    const hot = plans.filter((plan) => Number(plan.generic_plans) + Number(plan.custom_plans) >= RUNS);
    // The four above (others, such as Prisma's own, may run as often).
    expect(hot.length).toBeGreaterThanOrEqual(4);
    for (const plan of hot)
      expect({ statement: plan.statement, generic: Number(plan.generic_plans) > 0 }).toMatchObject({ generic: true });
  });
});
