import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/open-database.js";
import { findPublicCampaign } from "../../src/store/public-campaigns.js";
import { findBeginFacts } from "../../src/store/purchase-opening.js";
import { findPurchase } from "../../src/store/purchases.js";
import { isStoreUnavailable } from "../../src/store/store-unavailable.js";
import { seedCampaign, seedOffer } from "../support/seed.js";
import { seedPurchase } from "../support/seed-purchases.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// Every statement goes through Prisma Client (docs/architecture.md): its raw queries give int8 as
// bigint, timestamptz as a Date and bytea as bytes on both drivers, so the store's records need
// no conversion of their own. These are the values a wrong type would break.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const prisma = () => db.database.prisma;

describe("statements through Prisma Client", () => {
  it("read money past 2^53, 64-bit ids, times to the millisecond, bytes and absent values", async () => {
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

    expect(await findPurchase(prisma(), purchaseId)).toMatchObject({
      orderId: 2n ** 62n + 7n,
      createTime: new Date("2026-11-25T20:58:01.234Z"),
      transId: null,
      publisherKeyEncrypted: new Uint8Array(Buffer.from("not a real key")),
    });
    expect(await findPublicCampaign(prisma(), campaign.campaignKey, window)).toMatchObject({
      balanceNanos: 9_007_199_254_740_993n,
      sevenDaySpendNanos: 0n,
      outstandingNanos: 123n,
      outstandingLimitNanos: 2n ** 62n,
      cheapestCreditNanos: expect.any(BigInt),
    });
    expect(await findBeginFacts(prisma(), campaign.campaignKey, offerId, "r-1")).toMatchObject({
      appId: expect.any(BigInt),
      requestKnown: false,
      link: { outstandingLimitNanos: 2n ** 62n, publisherKeyEncrypted: expect.any(Uint8Array) },
      offer: { id: offerId, priceNanos: expect.any(BigInt), creditNanos: expect.any(BigInt) },
    });
    expect((await findBeginFacts(prisma(), campaign.campaignKey, "no-offer"))?.offer).toBeUndefined();
  });

  // Prisma's pg adapter writes a Date as UTC text without its zone and reads a timestamptz's
  // offset as UTC: in a session of another time zone every time would be nine hours off here.
  // openDatabase puts every session in UTC after whatever the URL asks.
  it("write and read the same instant whatever the process's and the URL's session time zones", async () => {
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
      await writer().$executeRaw`UPDATE purchases SET create_time = ${at} WHERE id = ${purchaseId}`;
      const [row] = await prisma().$queryRaw<{ utc: string }[]>`
        SELECT to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS utc FROM purchases WHERE id = ${purchaseId}`;
      expect(row?.utc).toBe("2026-11-25 20:58:01.234");
      expect((await findPurchase(writer(), purchaseId))?.createTime).toEqual(at);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
      await tokyo?.close();
    }
  });

  it("fail as the database being unavailable (503) when it cannot be reached", async (context) => {
    if (!onPostgres(db)) context.skip();
    // Nothing listens on port 1: the connection is refused, as when the server is down.
    const unreachable = await openDatabase({ kind: "postgres", url: "postgresql://postgres@127.0.0.1:1/none" });
    try {
      const error = await unreachable.prisma.$queryRaw`SELECT 1`.catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Error);
      expect(isStoreUnavailable(error)).toBe(true);
    } finally {
      await unreachable.close();
    }
  });
});
