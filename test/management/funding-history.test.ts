import { randomBytes, randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { LedgerType } from "../../gen/prisma/enums.js";
import { refusal } from "../support/refusal.js";
import { DOLLAR, seedOffer } from "../support/seed.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// GetFundingHistory: the funding chart's days, built from the project's ledger.
const NOW = new Date("2026-11-20T15:00:00Z");
const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 10, day, hour));
const usd = (units: bigint) => ({ currencyCode: "USD", units, nanos: 0 });

describe("CampaignService.GetFundingHistory", () => {
  let server: TestServer;
  let studio: Studio;
  let funding: string;
  beforeAll(async () => {
    server = await startTestServer({ now: () => NOW });
    const db = server.db.database.prisma;
    // The balance now: $98, after every entry below (the one dated tomorrow included).
    studio = await seedStudio(db, { balanceNanos: 98n * DOLLAR });
    funding = `${studio.name}/funding`;
    const entry = (type: LedgerType, dollars: bigint, createTime: Date) =>
      db.ledgerEntry.create({
        data: { id: randomUUID(), projectId: studio.projectId, type, amountNanos: dollars * DOLLAR, createTime },
      });
    await entry("USAGE", -10n, at(10)); // only in the runway of the window's first day
    await entry("DEVELOPER_TOP_UP", 20n, at(18));
    await entry("USAGE", -4n, at(19, 1));
    await entry("REVERSAL", -1n, at(19, 23));
    await entry("USAGE", -3n, at(20, 2));
    await entry("USAGE", -1n, at(20, 14));
    await entry("PLAYER_TOP_UP", 3n, at(20));
    await entry("USAGE", -2n, at(21)); // a clock ahead of ours: undone before today's close
    const offerId = await seedOffer(db, studio.campaignId);
    const credited = (creditTime: Date, sandbox = false) =>
      db.purchase.create({
        data: {
          id: randomUUID(),
          campaignId: studio.campaignId,
          offerId,
          linkId: studio.linkId,
          orderId: BigInt(`0x${randomBytes(7).toString("hex")}`),
          playerId: "76561198000000001",
          state: "CREDITED",
          priceNanos: 5n * DOLLAR,
          creditNanos: 3n * DOLLAR,
          sandbox,
          language: "en",
          createTime: creditTime,
          creditTime,
        },
      });
    await credited(at(20, 9));
    await credited(at(19, 9));
    await credited(at(19, 10));
    await credited(at(19, 11), true); // sandbox: credits nothing, not counted
  });
  afterAll(() => server.close());

  const as = (token: string) => server.client(CampaignService, "connect", token);

  it("answers each day's closing balance, spend, purchases, credits and runway, oldest first", async () => {
    const history = await as(studio.tokens.OWNER).getFundingHistory({ name: funding, days: 5 });
    expect(history.name).toBe(funding);
    const days = history.days.map((day) => ({
      start: new Date(Number(day.startTime?.seconds) * 1000).toISOString().slice(0, 10),
      closing: day.closingBalance?.units,
      spend: day.spend?.units,
      purchases: day.purchaseCount,
      purchased: day.purchasedCredit?.units,
      developer: day.developerCredit?.units,
      reversed: day.reversedCredit?.units,
      runway: day.runwayDays,
    }));
    expect(days).toEqual([
      // Runway over Nov 10-16: $86 at $10 a week.
      {
        start: "2026-11-16",
        closing: 86n,
        spend: 0n,
        purchases: 0n,
        purchased: 0n,
        developer: 0n,
        reversed: 0n,
        runway: 60n,
      },
      {
        start: "2026-11-17",
        closing: 86n,
        spend: 0n,
        purchases: 0n,
        purchased: 0n,
        developer: 0n,
        reversed: 0n,
        runway: undefined,
      },
      {
        start: "2026-11-18",
        closing: 106n,
        spend: 0n,
        purchases: 0n,
        purchased: 0n,
        developer: 20n,
        reversed: 0n,
        runway: undefined,
      },
      {
        start: "2026-11-19",
        closing: 101n,
        spend: 4n,
        purchases: 2n,
        purchased: 6n,
        developer: 0n,
        reversed: 1n,
        runway: 176n,
      },
      {
        start: "2026-11-20",
        closing: 100n,
        spend: 4n,
        purchases: 1n,
        purchased: 3n,
        developer: 0n,
        reversed: 0n,
        runway: 87n,
      },
    ]);
  });

  it("answers 30 days by default, every day present, the last one today", async () => {
    const history = await as(studio.tokens.BILLING).getFundingHistory({ name: funding });
    expect(history.days).toHaveLength(30);
    expect(Number(history.days[29]?.startTime?.seconds)).toBe(Date.UTC(2026, 10, 20) / 1000);
    expect(Number(history.days[0]?.startTime?.seconds)).toBe(Date.UTC(2026, 9, 22) / 1000);
    // Before the $10 of usage on Nov 10.
    expect(history.days[0]?.closingBalance).toMatchObject(usd(96n));
  });

  it("is served over REST at GET /v1/{funding}:history", async () => {
    const res = await server.rest("GET", `/v1/${funding}:history?days=2`, undefined, {
      authorization: `Bearer ${studio.tokens.OWNER}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(2);
    expect(res.body.days[1]).toMatchObject({
      startTime: "2026-11-20T00:00:00Z",
      closingBalance: { currencyCode: "USD", units: "100", nanos: 0 },
      purchaseCount: "1",
      runwayDays: "87",
    });
  });

  it("is NOT_FOUND for roles without encore.funding.get, exactly as for a campaign that does not exist", async () => {
    const missing = await refusal(
      as(studio.tokens.OWNER).getFundingHistory({ name: `accounts/${studio.accountId}/campaigns/nope/funding` }),
    );
    expect(missing.code).toBe(Code.NotFound);
    for (const role of ["ADMIN", "VIEWER"] as const) {
      const refused = await refusal(as(studio.tokens[role]).getFundingHistory({ name: funding }));
      expect(refused).toEqual({ code: Code.NotFound, message: `${funding} was not found.` });
    }
  });

  it.each([-1, 367])("refuses %i days with INVALID_ARGUMENT", async (days) => {
    expect((await refusal(as(studio.tokens.OWNER).getFundingHistory({ name: funding, days }))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("refuses a name that is not a funding's with INVALID_ARGUMENT", async () => {
    expect((await refusal(as(studio.tokens.OWNER).getFundingHistory({ name: studio.name }))).code).toBe(
      Code.InvalidArgument,
    );
  });
});
