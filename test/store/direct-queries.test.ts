import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../gen/prisma/client.js";
import { executeCount, queryRows } from "../../src/store/direct-queries.js";
import { openDatabase } from "../../src/store/open-database.js";
import { findPublicCampaign } from "../../src/store/public-campaigns.js";
import { findBeginFacts } from "../../src/store/purchase-opening.js";
import { findPurchase } from "../../src/store/purchases.js";
import { isStoreUnavailable } from "../../src/store/store-unavailable.js";
import { seedCampaign, seedOffer } from "../support/seed.js";
import { seedPurchase } from "../support/seed-purchases.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// Issue 14: on PostgreSQL the hot statements skip Prisma's client and its driver adapter and go
// straight to pg, on the adapter's pool; a transaction's client still goes through Prisma. Both
// must read and write the same records.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const prisma = () => db.database.prisma;
// The same read inside a transaction: Prisma's client, with Prisma's own value types.
const throughPrisma = <T>(read: (tx: Prisma.TransactionClient) => Promise<T>) => prisma().$transaction(read);

describe("statements straight on pg", () => {
  it("are taken on PostgreSQL, and not on PGlite or in a transaction", async () => {
    const sql = Prisma.sql`SELECT 9007199254740993::int8 AS n`;
    const [direct] = await queryRows<{ n: bigint | string }>(prisma(), sql);
    const [inTransaction] = await throughPrisma((tx) => queryRows<{ n: bigint | string }>(tx, sql));
    // pg hands int8 over as text; Prisma's client types it as a bigint.
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

  // Every time column is a timestamptz: pg writes a Date as local time with its offset and reads
  // one back as the instant it is, so neither the process's time zone nor the session's changes
  // anything (a Date written as UTC text without its zone, as Prisma's adapter wrote one, would
  // be read in the session's zone: nine hours off here).
  it("write and read the same instant whatever the process's and the session's time zones", async () => {
    // On PostgreSQL written through a second handle whose sessions are in Asia/Tokyo; PGlite has
    // one session, in UTC, and Prisma's client on it.
    const tokyo =
      db.target.kind === "postgres"
        ? await openDatabase({ ...db.target, url: `${db.target.url}?options=-c%20TimeZone%3DAsia%2FTokyo` })
        : undefined;
    const writer = () => tokyo?.prisma ?? prisma();
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const at = new Date("2026-11-25T20:58:01.234Z");
      const campaign = await seedCampaign(prisma());
      const offerId = await seedOffer(prisma(), campaign.campaignId);
      const purchaseId = await seedPurchase(prisma(), campaign, offerId, {});
      await executeCount(writer(), Prisma.sql`UPDATE purchases SET create_time = ${at} WHERE id = ${purchaseId}`);
      const [row] = await queryRows<{ utc: string }>(
        prisma(),
        Prisma.sql`SELECT to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS utc FROM purchases WHERE id = ${purchaseId}`,
      );
      expect(row?.utc).toBe("2026-11-25 20:58:01.234");
      expect((await findPurchase(writer(), purchaseId))?.createTime).toEqual(at);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
      await tokyo?.close();
    }
  });

  it("fail as the database being unavailable (503) when it cannot be reached", async () => {
    if (!onPostgres(db)) return;
    // Nothing listens on port 1: the connection is refused, as when the server is down.
    const unreachable = await openDatabase({ kind: "postgres", url: "postgresql://postgres@127.0.0.1:1/none" });
    try {
      const error = await queryRows(unreachable.prisma, Prisma.sql`SELECT 1`).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Error);
      expect(isStoreUnavailable(error)).toBe(true);
    } finally {
      await unreachable.close();
    }
  });
});
