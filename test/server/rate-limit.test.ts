import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { postFrom } from "../support/post-from.js";

describe("rate limits per client address (spec 8)", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture({ RATE_LIMIT_PER_ADDRESS: "3", RATE_LIMIT_BEGIN_PER_CAMPAIGN: "100" });
  });
  afterAll(() => f.close());

  it("keys on the socket address, never on X-Forwarded-For, across protocols, with 429 code 8", async () => {
    const shop = await f.shop();
    const from = (n: number) =>
      postFrom(
        f.server.baseUrl,
        "127.0.0.2",
        "/v1/public/funding:get",
        { campaignKey: shop.campaignKey },
        { "x-forwarded-for": `203.0.113.${n}` },
      );
    for (let n = 0; n < 3; n++) expect((await from(n)).status).toBe(200);
    const limited = await from(9);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 8, message: expect.any(String), details: [] });
    // Another socket address still has its own allowance.
    const other = await postFrom(f.server.baseUrl, "127.0.0.3", "/v1/public/funding:get", {
      campaignKey: shop.campaignKey,
    });
    expect(other.status).toBe(200);
  });

  it("limits Connect and gRPC calls from the same address alike", async () => {
    const shop = await f.shop();
    const client = f.server.client(CampaignService, "grpc");
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => client.getPublicFunding({ campaignKey: shop.campaignKey })),
    );
    // 127.0.0.1: the test client's own address, also used by the REST helper.
    expect(
      results.some((result) => result.status === "rejected" && (result.reason as { code: number }).code === 8),
    ).toBe(true);
    await expect(
      f.server.client(CampaignService, "connect").listPublicOffers({ campaignKey: shop.campaignKey }),
    ).rejects.toMatchObject({ code: 8 });
  });

  it("answers 429 before any work: a limited begin never reaches the platform", async () => {
    const shop = await f.shop();
    const player = await f.player(shop);
    const begin = () =>
      postFrom(f.server.baseUrl, "127.0.0.4", "/v1/public/purchases:begin", {
        campaignKey: shop.campaignKey,
        offerId: shop.offerId,
        authTicket: player.ticket,
      });
    for (let n = 0; n < 3; n++)
      await postFrom(f.server.baseUrl, "127.0.0.4", "/v1/public/funding:get", { campaignKey: shop.campaignKey });
    await f.sim.control.clearCalls();
    expect((await begin()).status).toBe(429);
    expect(await f.sim.control.listCalls()).toEqual([]);
  });

  it("does not limit management calls by the public allowance", async () => {
    for (let n = 0; n < 5; n++) {
      const res = await postFrom(
        f.server.baseUrl,
        "127.0.0.5",
        "/encore.campaign.v1.CampaignService/GetCampaign",
        { name: "accounts/a/campaigns/b" },
        { "connect-protocol-version": "1" },
      );
      expect(res.status).not.toBe(429);
    }
  });
});

describe("rate limits of purchases:begin per campaign key (spec 8)", () => {
  let f: PurchaseFixture;
  beforeAll(async () => {
    f = await startPurchaseFixture({ RATE_LIMIT_PER_ADDRESS: "1000", RATE_LIMIT_BEGIN_PER_CAMPAIGN: "2" });
  });
  afterAll(() => f.close());

  it("limits begin per campaign key whatever the address, and leaves other campaigns and calls alone", async () => {
    const shop = await f.shop();
    const other = await f.shop();
    const player = await f.player(shop);
    const begin = (address: string, campaignKey: string) =>
      postFrom(f.server.baseUrl, address, "/v1/public/purchases:begin", {
        campaignKey,
        offerId: shop.offerId,
        authTicket: player.ticket,
      });
    expect((await begin("127.0.0.6", shop.campaignKey)).status).toBe(200);
    expect((await begin("127.0.0.7", shop.campaignKey)).status).toBe(200);
    await f.sim.control.clearCalls();
    const limited = await begin("127.0.0.8", shop.campaignKey);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(8);
    expect(await f.sim.control.listCalls()).toEqual([]);
    expect((await begin("127.0.0.8", other.campaignKey)).status).not.toBe(429);
    expect(
      (await postFrom(f.server.baseUrl, "127.0.0.8", "/v1/public/funding:get", { campaignKey: shop.campaignKey }))
        .status,
    ).toBe(200);
  });
});
