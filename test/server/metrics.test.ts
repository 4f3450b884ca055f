import { type AddressInfo, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetricsListener, type MetricsListener } from "../../src/server/metrics-listener.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createMetrics } from "../../src/telemetry/metrics.js";
import { type PurchaseFixture, startPurchaseFixture } from "../purchase/purchase-fixture.js";
import { creditedPurchase, reconcile, replica, testClock } from "../reconciliation/reconciliation-fixture.js";
import { exposes, parsePrometheusText, type Samples, sample } from "../support/prometheus-text.js";
import { DOLLAR, seedCampaign } from "../support/seed.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const BEGIN = "encore.campaign.v1.CampaignService/BeginPurchase";
const COMPLETE = "encore.campaign.v1.CampaignService/CompletePurchase";
const redisUrl = process.env.TEST_REDIS_URL;

describe("GET /metrics", () => {
  let f: PurchaseFixture;
  let listener: MetricsListener;
  let metricsUrl: string;
  beforeAll(async () => {
    f = await startPurchaseFixture({
      // One begin per campaign per window: the second is a rate-limit refusal to count.
      RATE_LIMIT_BEGIN_PER_CAMPAIGN: "1",
      // The verification job must not empty the backlog this test puts there.
      VERIFICATION_INTERVAL_MS: "3600000",
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    });
    listener = createMetricsListener({ metrics: f.server.app.metrics, onError: () => {} });
    const at = await listener.listen(0, "127.0.0.1");
    metricsUrl = `http://127.0.0.1:${at.port}/metrics`;
  });
  afterAll(async () => {
    await listener.close();
    await f.close();
  });

  const scrape = async (): Promise<Samples> => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await res.text());
  };

  it("moves every series through one purchase on the Steam simulator", async () => {
    const shop = await f.shop({
      balanceNanos: 10n * DOLLAR,
      offer: { priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR },
    });
    const player = await f.player(shop);
    const before = await scrape();
    const delta = (after: Samples, name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);

    const begin = { campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket };
    const begun = await f.begin(begin);
    expect(begun.status).toBe(200);
    expect((await f.begin(begin)).status).toBe(429);
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.approveOrder(orderId);
    // The capture fails once: the purchase waits AUTHORIZED, the job lag monitoring watches.
    await f.sim.control.injectFault({ call: "FinalizeTxn", kind: "http5xx", status: 503 });
    const waiting = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    expect(waiting.body.state).toBe("STATE_AUTHORIZED");

    const midway = await scrape();
    expect(sample(midway, "encore_purchases_unsettled", { state: "AUTHORIZED" })).toBe(1);
    expect(sample(midway, "encore_purchase_oldest_authorized_age_seconds")).toBeGreaterThan(0);
    expect(sample(midway, "encore_backlog_read_up")).toBe(1);
    // An unanswered FinalizeTxn keeps its capture lease until it runs out (docs/settlement.md).
    await f.endFinalizeLease(purchase);

    const credited = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: true });
    expect(credited.body.state).toBe("STATE_CREDITED");
    const after = await scrape();

    expect(delta(after, "encore_rpc_requests_total", { method: BEGIN, code: "ok" })).toBe(1);
    expect(delta(after, "encore_rpc_requests_total", { method: BEGIN, code: "resource_exhausted" })).toBe(1);
    expect(delta(after, "encore_rpc_requests_total", { method: COMPLETE, code: "ok" })).toBe(2);
    expect(delta(after, "encore_rpc_duration_seconds_count", { method: COMPLETE, code: "ok" })).toBe(2);
    expect(delta(after, "encore_rpc_duration_seconds_sum", { method: COMPLETE, code: "ok" })).toBeGreaterThan(0);

    expect(delta(after, "encore_purchases_ended_total", { state: "CREDITED", sandbox: "false" })).toBe(1);
    expect(delta(after, "encore_credit_issued_nano_usd_total")).toBe(3e9);
    expect(sample(after, "encore_purchases_unsettled", { state: "AUTHORIZED" })).toBe(0);
    expect(sample(after, "encore_purchase_oldest_authorized_age_seconds")).toBe(0);

    const steam = (call: string, outcome: string) => ({ platform: "steam", call, outcome });
    expect(delta(after, "encore_platform_requests_total", steam("AuthenticateUserTicket", "ok"))).toBe(1);
    expect(delta(after, "encore_platform_requests_total", steam("InitTxn", "ok"))).toBe(1);
    expect(delta(after, "encore_platform_requests_total", steam("FinalizeTxn", "unavailable"))).toBe(1);
    expect(delta(after, "encore_platform_requests_total", steam("FinalizeTxn", "ok"))).toBe(1);
    expect(delta(after, "encore_platform_requests_total", steam("QueryTxn", "ok"))).toBeGreaterThanOrEqual(2);
    expect(delta(after, "encore_platform_request_duration_seconds_count", steam("InitTxn", "ok"))).toBe(1);

    expect(delta(after, "encore_rate_limit_refusals_total", { limit: "begin_per_campaign" })).toBe(1);

    if (onPostgres(f.server.db)) {
      expect(sample(after, "encore_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
      expect(exposes(after, "encore_db_pool_waiting_requests")).toBe(true);
    } else {
      expect(exposes(after, "encore_db_pool_connections")).toBe(false);
      expect(exposes(after, "encore_db_pool_waiting_requests")).toBe(false);
    }
    if (redisUrl) expect(sample(after, "encore_rate_limit_store_up")).toBe(1);
    else expect(exposes(after, "encore_rate_limit_store_up")).toBe(false);
    expect(exposes(after, "process_cpu_seconds_total")).toBe(true);
  });

  it("counts a purchase the player declined as CANCELLED, with no credit", async () => {
    const shop = await f.shop({
      balanceNanos: 10n * DOLLAR,
      offer: { priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR },
    });
    const player = await f.player(shop);
    const before = await scrape();
    const begun = await f.begin({ campaignKey: shop.campaignKey, offerId: shop.offerId, authTicket: player.ticket });
    expect(begun.status).toBe(200);
    const { purchase, orderId } = begun.body as { purchase: string; orderId: string };
    await f.sim.control.declineOrder(orderId);
    const declined = await f.complete({ campaignKey: shop.campaignKey, purchase, orderId, authorized: false });
    expect(declined.body.state).toBe("STATE_CANCELLED");
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta("encore_purchases_ended_total", { state: "CANCELLED", sandbox: "false" })).toBe(1);
    expect(delta("encore_purchases_ended_total", { state: "CREDITED", sandbox: "false" })).toBe(0);
    expect(delta("encore_credit_issued_nano_usd_total")).toBe(0);
  });

  it("counts credit reconciliation takes back, by reversal kind, once the page is committed", async () => {
    const shop = await f.shop({
      balanceNanos: 10n * DOLLAR,
      offer: { priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR },
    });
    const bought = await creditedPurchase(f, shop);
    await f.sim.control.setOrderStatus(bought.orderId, "Chargedback");
    const before = await scrape();
    const clock = testClock();
    const job = replica(f, clock, { metrics: f.server.app.metrics });
    expect(await reconcile(job, shop)).toMatchObject({ reversed: 1 });
    // The report repeats the chargeback: nothing moves twice.
    clock.tick();
    expect(await reconcile(job, shop)).toMatchObject({ reversed: 0 });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta("encore_credit_reversed_nano_usd_total", { kind: "CHARGEDBACK" })).toBe(3e9);
    expect(delta("encore_credit_issued_nano_usd_total")).toBe(0);
  });

  it("reads the campaigns waiting for verification from the database", async () => {
    const before = await scrape();
    await seedCampaign(f.db, { state: "VERIFYING" });
    const after = await scrape();
    expect(sample(after, "encore_verification_backlog") - sample(before, "encore_verification_backlog")).toBe(1);
    expect(sample(after, "encore_verification_oldest_age_seconds")).toBeGreaterThan(0);
  });

  it("serves nothing but GET /metrics", async () => {
    expect((await fetch(metricsUrl.replace("/metrics", "/healthz"))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(404);
  });
});

describe("encore_rate_limit_store_up", () => {
  // Polls the readiness detail (the same status the gauge reads) until the client settled.
  const settled = async (server: TestServer, line: string) => {
    for (;;) {
      if ((await (await fetch(`${server.baseUrl}/readyz`)).text()).includes(`${line}\n`)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it("reads 0 while REDIS_URL does not answer (each replica counts in memory)", async () => {
    const server = await startTestServer({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    try {
      await settled(server, "rate limits: redis unavailable, counting in memory meanwhile");
      const samples = parsePrometheusText(await server.app.metrics.scrape());
      expect(exposes(samples, "encore_rate_limit_store_up")).toBe(true);
      expect(sample(samples, "encore_rate_limit_store_up")).toBe(0);
    } finally {
      await server.close();
    }
  });

  it.runIf(redisUrl)("reads 1 while Redis answers (TEST_REDIS_URL)", async () => {
    const server = await startTestServer({ env: { REDIS_URL: redisUrl as string } });
    try {
      await settled(server, "rate limits: redis");
      expect(sample(parsePrometheusText(await server.app.metrics.scrape()), "encore_rate_limit_store_up")).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe("the database pool series", () => {
  it("are all absent with the embedded database, which has no pool", async () => {
    const database = await openDatabase({ kind: "pglite" });
    try {
      const metrics = createMetrics({
        backlog: async () => ({
          unsettled: { INITIATED: 0, AUTHORIZED: 0 },
          oldestAuthorized: null,
          verifying: 0,
          oldestVerifying: null,
        }),
        poolStats: database.poolStats,
        now: () => new Date(),
        onScrapeError: () => {},
      });
      const samples = parsePrometheusText(await metrics.scrape());
      expect(exposes(samples, "encore_db_pool_connections")).toBe(false);
      expect(exposes(samples, "encore_db_pool_waiting_requests")).toBe(false);
      // Nor a Redis store without REDIS_URL.
      expect(exposes(samples, "encore_rate_limit_store_up")).toBe(false);
    } finally {
      await database.close();
    }
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("a REST call refused before its body is read (spec 8)", () => {
  it("is still one call in encore_rpc_requests_total, and one refusal by its limit", async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_PER_ADDRESS: "1" } });
    try {
      const call = () => server.rest("POST", "/v1/public/funding:get", { campaignKey: "nope" });
      expect((await call()).status).toBe(404);
      expect((await call()).status).toBe(429);
      const after = parsePrometheusText(await server.app.metrics.scrape());
      const method = "encore.campaign.v1.CampaignService/GetPublicFunding";
      expect(sample(after, "encore_rpc_requests_total", { method, code: "not_found" })).toBe(1);
      expect(sample(after, "encore_rpc_requests_total", { method, code: "resource_exhausted" })).toBe(1);
      expect(sample(after, "encore_rate_limit_refusals_total", { limit: "address" })).toBe(1);
    } finally {
      await server.close();
    }
  });
});
