import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../gen/prisma/client.js";
import { queryRows } from "../../src/store/direct-queries.js";
import { findPublicCampaign } from "../../src/store/public-campaigns.js";
import { findBeginFacts } from "../../src/store/purchase-opening.js";
import { findPurchase } from "../../src/store/purchases.js";
import { seedCampaign, seedOffer } from "../support/seed.js";
import { seedPurchase } from "../support/seed-purchases.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// Issue 14: on PostgreSQL the hot reads skip Prisma's client and go straight through its driver
// adapter; a transaction's client still goes through Prisma. Both must read the same record.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const prisma = () => db.database.prisma;
// The same read inside a transaction: Prisma's client, with Prisma's own value types.
const throughPrisma = <T>(read: (tx: Prisma.TransactionClient) => Promise<T>) => prisma().$transaction(read);

describe("reads straight through the driver adapter", () => {
  it("are taken on PostgreSQL, and not on PGlite or in a transaction", async () => {
    const sql = Prisma.sql`SELECT 9007199254740993::int8 AS n`;
    const [direct] = await queryRows<{ n: bigint | string }>(prisma(), sql);
    const [inTransaction] = await throughPrisma((tx) => queryRows<{ n: bigint | string }>(tx, sql));
    // The adapter hands int8 over as text; Prisma's client types it as a bigint.
    expect(direct?.n).toBe(onPostgres(db) ? "9007199254740993" : 9007199254740993n);
    expect(inTransaction?.n).toBe(9007199254740993n);
  });

  it("read the same records as Prisma's client: money, ids, times, bytes and absent values", async () => {
    const campaign = await seedCampaign(prisma(), {
      balanceNanos: 9_007_199_254_740_993n,
      outstandingNanos: 123n,
      outstandingLimitNanos: 2n ** 62n,
    });
    const offerId = await seedOffer(prisma(), campaign.campaignId);
    const purchaseId = await seedPurchase(prisma(), campaign, offerId, {
      orderId: 2n ** 62n + 7n,
      createTime: new Date("2026-11-25T20:58:01.234Z"),
    });
    const window = { since: new Date("2026-11-18T00:00:00Z"), until: new Date("2026-11-25T00:00:00Z") };

    // Each read as `client` gives it: the root client (direct on PostgreSQL) against a transaction's.
    type Read = (client: Prisma.TransactionClient) => Promise<unknown>;
    const reads: Read[] = [
      (client) => findPurchase(client, purchaseId),
      (client) => findPublicCampaign(client as never, campaign.campaignKey, window),
      (client) => findBeginFacts(client as never, campaign.campaignKey, offerId, "r-1"),
      (client) => findBeginFacts(client as never, campaign.campaignKey, "no-offer"),
    ];
    for (const read of reads) {
      const direct = await read(prisma());
      expect(direct).toBeDefined();
      expect(direct).toEqual(await throughPrisma(read));
    }
    const purchase = await findPurchase(prisma(), purchaseId);
    expect(purchase).toMatchObject({
      orderId: 2n ** 62n + 7n,
      createTime: new Date("2026-11-25T20:58:01.234Z"),
      transId: null,
      publisherKeyEncrypted: new Uint8Array(Buffer.from("not a real key")),
    });
    expect(await findPublicCampaign(prisma(), campaign.campaignKey, window)).toMatchObject({
      balanceNanos: 9_007_199_254_740_993n,
      outstandingLimitNanos: 2n ** 62n,
      cheapestCreditNanos: expect.any(BigInt),
    });
  });
});
