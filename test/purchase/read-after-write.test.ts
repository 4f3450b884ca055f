import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FundingVisibility } from "../../gen/encore/campaign/v1/visibility_pb.js";
import { DOLLAR } from "../support/seed.js";
import type { SeededShop } from "../support/seed-purchases.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { ownerClient } from "./owner-client.js";
import { type PurchaseFixture, startPurchaseFixture } from "./purchase-fixture.js";

// A public read served from the cache never contradicts a credit the service made.
// The cache is on for as long as the configuration allows (a minute), so a read that answered
// from before the credit would keep answering it for the whole test.
const CACHE_MS = "60000";

let f: PurchaseFixture;
let replica: TestServer;
beforeAll(async () => {
  f = await startPurchaseFixture({ PUBLIC_READ_CACHE_MS: CACHE_MS });
  // A second replica over the same database and platform, with its own cache.
  replica = await startTestServer({
    db: f.server.db,
    env: { STEAM_API_URL: f.sim.url, STEAM_STORE_URL: f.sim.storeUrl, PUBLIC_READ_CACHE_MS: CACHE_MS },
  });
});
afterAll(async () => {
  await replica?.close();
  await f?.close();
});

const read = async (server: TestServer, path: "funding:get" | "offers:list", shop: SeededShop) => {
  const res = await server.rest("POST", `/v1/public/${path}`, { campaignKey: shop.campaignKey });
  expect(res.status).toBe(200);
  return res.body;
};

describe("funding:get after a credit, with the public read cache on", () => {
  const funding = (server: TestServer, shop: SeededShop) => read(server, "funding:get", shop);

  /** Buys the shop's offer through `server` (begin, the overlay approves, complete): the answer's funding. */
  async function buy(shop: SeededShop) {
    const player = await f.player(shop);
    const begun = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(begun.status).toBe(200);
    await f.sim.control.approveOrder(begun.body.orderId);
    const completed = await f.complete({
      campaignKey: shop.campaignKey,
      purchase: begun.body.purchase,
      orderId: begun.body.orderId,
      authorized: true,
    });
    expect(completed.body.state).toBe("STATE_CREDITED");
    return completed.body.funding;
  }

  it("answers the new balance at once on the replica that credited", async () => {
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const before = await funding(f.server, shop);
    expect(before).toMatchObject({ funded: false });
    const after = await buy(shop);
    expect(after).toMatchObject({ funded: true, balance: { units: "3" } });
    expect(await funding(f.server, shop)).toEqual(after);
  });

  it("answers the new balance on another replica once PostgreSQL delivers the credit's notification", async (context) => {
    if (!onPostgres(f.server.db)) context.skip();
    const shop = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    expect(await funding(replica, shop)).toMatchObject({ funded: false });
    const after = await buy(shop);
    // Delivered when the credit commits; the wait is for the notification, never a speed check:
    // without it the replica answers from its cache for the whole minute.
    await expect.poll(() => funding(replica, shop), { timeout: 20_000, interval: 50 }).toEqual(after);
  });

  it("keeps other campaigns' cached answers", async () => {
    const bought = await f.shop({ offer: { creditNanos: 3n * DOLLAR } });
    const other = await f.shop({ balanceNanos: 5n * DOLLAR });
    const cached = await funding(f.server, other);
    // Changed behind the service's back: only the TTL would show it, and no credit forgets it.
    await f.db.project.update({ where: { id: other.projectId }, data: { balanceNanos: 9n * DOLLAR } });
    await buy(bought);
    expect(await funding(f.server, other)).toEqual(cached);
  });
});

// Writes that name no campaign key (a studio's or the operator's) forget every cached answer.
describe("funding:get and offers:list after a management write, with the public read cache on", () => {
  const campaignName = (shop: SeededShop) => `accounts/${shop.accountId}/campaigns/${shop.campaignId}`;

  it("answers a studio's change at once on the replica that made it, and on another once notified", async (context) => {
    const shop = await f.shop({ balanceNanos: 5n * DOLLAR });
    const owner = await ownerClient(f, shop.accountId);
    expect(await read(f.server, "funding:get", shop)).toMatchObject({ balance: { units: "5" } });
    const offers = await read(f.server, "offers:list", shop);
    expect(await read(replica, "funding:get", shop)).toMatchObject({ balance: { units: "5" } });

    await owner.updateCampaign({
      campaign: { name: campaignName(shop), fundingVisibility: FundingVisibility.FUNDED_ONLY },
      updateMask: { paths: ["funding_visibility"] },
    });
    const offer = `${campaignName(shop)}/offers/${shop.offerId}`;
    await owner.updateOffer({
      offer: { name: offer, displayName: "Renamed" },
      updateMask: { paths: ["display_name"] },
    });

    expect(await read(f.server, "funding:get", shop)).toMatchObject({ visibility: "FUNDING_VISIBILITY_FUNDED_ONLY" });
    expect(await read(f.server, "offers:list", shop)).not.toEqual(offers);
    expect(JSON.stringify(await read(f.server, "offers:list", shop))).toContain("Renamed");
    if (!onPostgres(f.server.db)) return context.skip();
    // The replica's cached answer would last the whole minute without the notification.
    await expect
      .poll(() => read(replica, "funding:get", shop), { timeout: 20_000, interval: 50 })
      .toMatchObject({ visibility: "FUNDING_VISIBILITY_FUNDED_ONLY" });
  });

  it("keeps serving reads from the cache between writes", async () => {
    const shop = await f.shop({ balanceNanos: 5n * DOLLAR });
    const cached = await read(f.server, "funding:get", shop);
    // Behind the service's back: no write of the service, so only the cache's expiry would show it.
    await f.db.project.update({ where: { id: shop.projectId }, data: { balanceNanos: 9n * DOLLAR } });
    expect(await read(f.server, "funding:get", shop)).toEqual(cached);
  });
});
