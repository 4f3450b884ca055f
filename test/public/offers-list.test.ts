import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { DOLLAR, seedCampaign, seedOffer } from "../support/seed.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

describe("POST /v1/public/offers:list (spec 4.2)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const list = (campaignKey: string) => server.rest("POST", "/v1/public/offers:list", { campaignKey });

  it("lists active offers only, cheapest first, with USD prices and never the credit", async () => {
    const db = server.db.database.prisma;
    const { campaignId, campaignKey } = await seedCampaign(db);
    const month = await seedOffer(db, campaignId, {
      displayName: "Month",
      priceNanos: 14_990_000_000n,
      creditNanos: 9n * DOLLAR,
    });
    const week = await seedOffer(db, campaignId, {
      displayName: "Week",
      priceNanos: 4_990_000_000n,
      creditNanos: 3n * DOLLAR,
    });
    await seedOffer(db, campaignId, { displayName: "Retired", active: false });
    const res = await list(campaignKey);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      offers: [
        {
          offerId: week,
          displayName: "Week",
          description: "Keeps the servers up",
          price: { currencyCode: "USD", units: "4", nanos: 990_000_000 },
        },
        {
          offerId: month,
          displayName: "Month",
          description: "Keeps the servers up",
          price: { currencyCode: "USD", units: "14", nanos: 990_000_000 },
        },
      ],
      purchasable: true,
      unavailableReason: "",
    });
    expect(JSON.stringify(res.body)).not.toMatch(/credit/i);
  });

  it("lists offers before verification, with purchasable false and the reason", async () => {
    const db = server.db.database.prisma;
    const { campaignId, campaignKey } = await seedCampaign(db, { state: "VERIFYING", ready: false });
    await seedOffer(db, campaignId);
    const res = await list(campaignKey);
    expect(res.body.offers).toHaveLength(1);
    expect(res.body).toMatchObject({ purchasable: false, unavailableReason: "CAMPAIGN_NOT_VERIFIED" });
  });

  it("answers an empty list, not an absent one, for a campaign with nothing on sale", async () => {
    const { campaignKey } = await seedCampaign(server.db.database.prisma);
    expect((await list(campaignKey)).body).toEqual({ offers: [], purchasable: true, unavailableReason: "" });
  });

  it("answers an unknown key 404 with a bare Status", async () => {
    const res = await list("nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 5, message: expect.any(String), details: [] });
  });

  it.each(["connect", "grpc", "grpc-web"] as const)("lists the same offers over %s", async (protocol) => {
    const db = server.db.database.prisma;
    const { campaignId, campaignKey } = await seedCampaign(db);
    const offerId = await seedOffer(db, campaignId, { priceNanos: 2n * DOLLAR, creditNanos: DOLLAR });
    const answer = await server.client(CampaignService, protocol).listPublicOffers({ campaignKey });
    expect(answer.offers.map((offer) => [offer.offerId, offer.price?.units])).toEqual([[offerId, 2n]]);
    expect(answer.purchasable).toBe(true);
  });
});
