import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPurchase } from "../../src/store/purchase-opening.js";
import { DOLLAR, seedCampaign, seedOffer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// Begin reserves credit only while outstanding + reserved + credit stays within the link's
// outstanding limit (spec 8). Amounts a request carries are bounded (domain/money.ts), but a
// limit or an outstanding stored before the bound existed may be as large as int64 holds: the
// sum is taken as numeric, so one past int64 is over the limit, never a 500 (docs/api.md "Money").

const INT64_MAX = 2n ** 63n - 1n;

describe("begin's reservation against an outstanding limit near int64", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const open = async (link: { outstandingNanos: bigint; reservedNanos?: bigint; creditNanos: bigint }) => {
    const prisma = db.database.prisma;
    const shop = await seedCampaign(prisma, {
      outstandingNanos: link.outstandingNanos,
      reservedNanos: link.reservedNanos ?? 0n,
      outstandingLimitNanos: INT64_MAX,
    });
    const offerId = await seedOffer(prisma, shop.campaignId, {
      priceNanos: 2n * DOLLAR,
      creditNanos: link.creditNanos,
    });
    const opened = await openPurchase(prisma, {
      purchaseId: randomUUID(),
      campaignId: shop.campaignId,
      offerId,
      linkId: shop.linkId,
      orderId: BigInt(Math.floor(Math.random() * 1e12)),
      playerId: "76561198000000001",
      priceNanos: 2n * DOLLAR,
      creditNanos: link.creditNanos,
      sandbox: false,
      language: "en",
      channel: "GAME",
      requestId: undefined,
      now: new Date(),
    });
    const row = await prisma.distributorLink.findUniqueOrThrow({ where: { id: shop.linkId } });
    return { opened, reservedNanos: row.reservedNanos };
  };

  it("refuses a credit whose sum would pass int64 as over the limit", async () => {
    expect(await open({ outstandingNanos: INT64_MAX, creditNanos: DOLLAR })).toEqual({
      opened: "limit-reached",
      reservedNanos: 0n,
    });
    expect(await open({ outstandingNanos: INT64_MAX - DOLLAR, reservedNanos: DOLLAR, creditNanos: 1n })).toEqual({
      opened: "limit-reached",
      reservedNanos: DOLLAR,
    });
  });

  it("reserves a credit that ends exactly at int64", async () => {
    expect(await open({ outstandingNanos: INT64_MAX - DOLLAR, creditNanos: DOLLAR })).toEqual({
      opened: "opened",
      reservedNanos: DOLLAR,
    });
  });
});
