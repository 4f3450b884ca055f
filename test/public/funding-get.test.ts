import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { DOLLAR, seedCampaign, seedOffer, seedUsage } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

describe("POST /v1/public/funding:get", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ now: () => NOW });
  });
  afterAll(() => server.close());

  const funding = async (campaignKey: string) => server.rest("POST", "/v1/public/funding:get", { campaignKey });

  async function campaignWithSpend(options: Parameters<typeof seedCampaign>[1], weeklySpend: bigint) {
    const campaign = await seedCampaign(server.db.database.prisma, options);
    await seedOffer(server.db.database.prisma, campaign.campaignId);
    if (weeklySpend > 0n) {
      await seedUsage(server.db.database.prisma, campaign.projectId, weeklySpend / 2n, daysAgo(1));
      await seedUsage(server.db.database.prisma, campaign.projectId, weeklySpend / 2n, daysAgo(6));
      // Older than the window: not part of the rate.
      await seedUsage(server.db.database.prisma, campaign.projectId, 1000n * DOLLAR, daysAgo(8));
    }
    return campaign;
  }

  it("shows balance and runway under EXACT_BALANCE, with every implicit field present", async () => {
    const { campaignKey } = await campaignWithSpend(
      { visibility: "EXACT_BALANCE", balanceNanos: 120n * DOLLAR + 500_000_000n },
      28n * DOLLAR,
    );
    const res = await funding(campaignKey);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    // $120.50 at $4 a day: 30 whole days.
    expect(res.body).toEqual({
      funded: true,
      balance: { currencyCode: "USD", units: "120", nanos: 500_000_000 },
      runwayDays: "30",
      visibility: "FUNDING_VISIBILITY_EXACT_BALANCE",
      purchasable: true,
      unavailableReason: "",
    });
  });

  it("hides the balance under RUNWAY (null, not absent) and keeps the runway", async () => {
    const { campaignKey } = await campaignWithSpend({ visibility: "RUNWAY", balanceNanos: 70n * DOLLAR }, 70n * DOLLAR);
    const res = await funding(campaignKey);
    expect(res.body).toEqual({
      funded: true,
      balance: null,
      runwayDays: "7",
      visibility: "FUNDING_VISIBILITY_RUNWAY",
      purchasable: true,
      unavailableReason: "",
    });
  });

  it("shows only whether it is funded under FUNDED_ONLY", async () => {
    const { campaignKey } = await campaignWithSpend(
      { visibility: "FUNDED_ONLY", balanceNanos: 70n * DOLLAR },
      70n * DOLLAR,
    );
    const res = await funding(campaignKey);
    expect(res.body).toEqual({
      funded: true,
      balance: null,
      visibility: "FUNDING_VISIBILITY_FUNDED_ONLY",
      purchasable: true,
      unavailableReason: "",
    });
    expect(res.body).not.toHaveProperty("runwayDays");
  });

  it("leaves runwayDays absent when nothing was spent in the last seven days", async () => {
    const { campaignKey, projectId } = await campaignWithSpend(
      { visibility: "EXACT_BALANCE", balanceNanos: 5n * DOLLAR },
      0n,
    );
    await seedUsage(server.db.database.prisma, projectId, 3n * DOLLAR, daysAgo(9));
    const res = await funding(campaignKey);
    expect(res.body).not.toHaveProperty("runwayDays");
    expect(res.body.balance).toEqual({ currencyCode: "USD", units: "5", nanos: 0 });
  });

  it('answers runwayDays "0" when less than a day is left, and an empty project is unfunded', async () => {
    const low = await campaignWithSpend({ visibility: "RUNWAY", balanceNanos: DOLLAR / 2n }, 7n * DOLLAR);
    expect((await funding(low.campaignKey)).body.runwayDays).toBe("0");
    const empty = await campaignWithSpend({ visibility: "EXACT_BALANCE", balanceNanos: 0n }, 7n * DOLLAR);
    const res = await funding(empty.campaignKey);
    expect(res.body).toMatchObject({
      funded: false,
      balance: { currencyCode: "USD", units: "0", nanos: 0 },
      runwayDays: "0",
    });
  });

  it.each([
    ["not verified", { state: "NEEDS_REVIEW" as const }, "CAMPAIGN_NOT_VERIFIED"],
    ["verified, not transferred", { ready: false }, "CAMPAIGN_NOT_READY"],
    ["key rejected", { linkState: "CREDENTIAL_INVALID" as const }, "PUBLISHER_UNAVAILABLE"],
    [
      "outstanding limit reached",
      { outstandingNanos: 99n * DOLLAR, outstandingLimitNanos: 100n * DOLLAR },
      "PUBLISHER_LIMIT_REACHED",
    ],
    [
      "several at once: the first in DESIGN order",
      { state: "DECLINED" as const, ready: false, linkState: "CREDENTIAL_INVALID" as const },
      "CAMPAIGN_NOT_VERIFIED",
    ],
  ])("says why it is not purchasable: %s", async (_, options, reason) => {
    const { campaignKey } = await campaignWithSpend(options, 0n);
    const res = await funding(campaignKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ purchasable: false, unavailableReason: reason });
  });

  it("answers an unknown key 404 with a bare google.rpc.Status and no-store", async () => {
    const res = await funding("nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({ code: 5, message: expect.any(String), details: [] });
  });

  it("ignores unknown fields and any Authorization header", async () => {
    const { campaignKey } = await campaignWithSpend({ visibility: "FUNDED_ONLY", balanceNanos: DOLLAR }, 0n);
    const plain = await funding(campaignKey);
    const extra = await server.rest(
      "POST",
      "/v1/public/funding:get",
      { campaignKey, futureField: { x: 1 } },
      { authorization: "Bearer garbage" },
    );
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });

  it.each([
    ["a missing campaignKey", "{}"],
    ["an empty campaignKey", JSON.stringify({ campaignKey: "" })],
    ["malformed JSON", '{"campaignKey": '],
    ["a JSON array", "[]"],
    ["a wrongly typed field", JSON.stringify({ campaignKey: 12 })],
  ])("refuses %s: 400 code 3", async (_, body) => {
    const res = await server.rest("POST", "/v1/public/funding:get", body);
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ code: 3, message: expect.any(String) });
  });

  it("refuses a body over 64 KiB with 400 code 3", async () => {
    const res = await server.rest("POST", "/v1/public/funding:get", { campaignKey: "k", pad: "x".repeat(64 * 1024) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(3);
  });

  it("accepts a body of exactly 64 KiB", async () => {
    const { campaignKey } = await campaignWithSpend({ balanceNanos: DOLLAR }, 0n);
    const prefix = JSON.stringify({ campaignKey, pad: "" });
    const body = `${prefix.slice(0, -2)}${"x".repeat(64 * 1024 - prefix.length)}"}`;
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    const res = await server.rest("POST", "/v1/public/funding:get", body);
    expect(res.status).toBe(200);
  });

  it("takes POST with JSON only", async () => {
    const get = await server.rest("GET", "/v1/public/funding:get");
    expect(get.status).toBeGreaterThanOrEqual(400);
    expect(get.body).toMatchObject({ code: expect.any(Number) });
    const form = await server.rest("POST", "/v1/public/funding:get", "campaignKey=x", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect([400, 415]).toContain(form.status);
    expect(form.body).toMatchObject({ code: 3 });
  });

  it("answers an unknown route 404 with a Status body", async () => {
    const res = await server.rest("POST", "/v1/public/nothing:here", {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 5 });
  });

  it.each(["connect", "grpc", "grpc-web"] as const)("gives the same funding over %s", async (protocol) => {
    const { campaignKey } = await campaignWithSpend({ visibility: "RUNWAY", balanceNanos: 70n * DOLLAR }, 70n * DOLLAR);
    const client = server.client(CampaignService, protocol);
    const result = await client.getPublicFunding({ campaignKey });
    expect(result.balance).toBeUndefined();
    expect(result).toMatchObject({
      funded: true,
      runwayDays: 7n,
      visibility: FundingVisibility.RUNWAY,
      purchasable: true,
      unavailableReason: "",
    });
    await expect(client.getPublicFunding({ campaignKey: "nope" })).rejects.toMatchObject({ code: 5 });
    await expect(client.getPublicFunding({ campaignKey: "" })).rejects.toMatchObject({ code: 3 });
  });
});

describe("funding that cannot be read", () => {
  it("fails with 503 code 14 instead of answering a zero balance", async () => {
    const server = await startTestServer();
    const { campaignKey } = await seedCampaign(server.db.database.prisma, { balanceNanos: 0n });
    await server.db.database.close();
    try {
      const res = await server.rest("POST", "/v1/public/funding:get", { campaignKey });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14 });
      expect(res.body).not.toHaveProperty("funded");
    } finally {
      await server.close().catch(() => {});
    }
  });
});

describe("the public read cache (PUBLIC_READ_CACHE_MS)", () => {
  it("answers a campaign from one read for the interval, then reads afresh", async () => {
    let clock = new Date("2026-11-20T12:00:00Z").getTime();
    const server = await startTestServer({ env: { PUBLIC_READ_CACHE_MS: "1000" }, now: () => new Date(clock) });
    try {
      const { campaignKey, projectId } = await seedCampaign(server.db.database.prisma, { balanceNanos: 5n * DOLLAR });
      const balance = async () => (await server.rest("POST", "/v1/public/funding:get", { campaignKey })).body.balance;
      expect(await balance()).toEqual({ currencyCode: "USD", units: "5", nanos: 0 });
      await server.db.database.prisma.project.update({ where: { id: projectId }, data: { balanceNanos: 9n * DOLLAR } });
      expect(await balance()).toEqual({ currencyCode: "USD", units: "5", nanos: 0 });
      clock += 1000;
      expect(await balance()).toEqual({ currencyCode: "USD", units: "9", nanos: 0 });
    } finally {
      await server.close();
    }
  });
});
