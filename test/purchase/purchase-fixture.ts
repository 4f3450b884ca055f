import type { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { loadConfig } from "../../src/config.js";
import type { ServiceDeps } from "../../src/core/deps.js";
import { createSettlementSweeper, type SettlementSweeper } from "../../src/jobs/settlement-sweeper.js";
import { createSteamClient, type SteamClient } from "../../src/platform/steam/create-steam-client.js";
import type { SteamPlatform } from "../../src/platform/steam/steam-platform.js";
import { type SteamSimulator, startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import type { Db } from "../../src/store/open-database.js";
import type { SeedCampaignOptions, SeedOfferOptions } from "../support/seed.js";
import { mintPlayer, type SeededShop, seedShop } from "../support/seed-purchases.js";
import { testServiceDeps } from "../support/service-deps.js";
import {
  type RestResult,
  startTestServer,
  TEST_MASTER_KEY,
  type TestServer,
  type TestServerOptions,
} from "../support/test-server.js";
import { startTestTracing } from "../support/traced.js";

export interface PurchaseFixture {
  sim: SteamSimulator;
  server: TestServer;
  db: Db;
  /** A second client of the same platform, for what a test does "behind the service's back". */
  steam: SteamClient;
  shop(options?: SeedCampaignOptions & { offer?: SeedOfferOptions }): Promise<SeededShop>;
  player(shop: SeededShop): Promise<{ steamid: string; ticket: string }>;
  begin(body: Record<string, unknown>, headers?: Record<string, string>): Promise<RestResult>;
  complete(body: Record<string, unknown>): Promise<RestResult>;
  /** Service dependencies on the fixture's database and platform client, for calling a use case directly. */
  deps(overrides?: Partial<ServiceDeps>): ServiceDeps;
  /**
   * A sweeper of its own on a clock the test moves (the app's own sweeper is left to its
   * schedule), optionally talking to the platform through `platform` (to pause it mid-call).
   */
  sweeper(clock: { now: Date }, intervalMs?: number, platform?: SteamPlatform): SettlementSweeper;
  /**
   * Lets the purchase's capture lease run out (2 x STEAM_TIMEOUT_MS after it was taken), as it
   * does after a FinalizeTxn nobody answered or a holder that died, without waiting for it.
   */
  endFinalizeLease(purchaseId: string): Promise<void>;
  close(): Promise<void>;
}

// Short, so platform faults (timeouts) end quickly; settle-after must stay above 2x this.
const STEAM_TIMEOUT_MS = 1000;

export async function startPurchaseFixture(
  env: Record<string, string> = {},
  serverOptions: Pick<TestServerOptions, "tracing" | "logger"> = {},
): Promise<PurchaseFixture> {
  const sim = await startSteamSimulator({ port: 0 });
  const fullEnv = {
    STEAM_API_URL: sim.url,
    STEAM_STORE_URL: sim.storeUrl,
    STEAM_TIMEOUT_MS: String(STEAM_TIMEOUT_MS),
    LOG_LEVEL: "silent",
    ...env,
  };
  const server = await startTestServer({ env: fullEnv, ...serverOptions });
  const db = server.db.database.prisma;
  const steam = createSteamClient({
    apiUrl: sim.url,
    storeUrl: sim.storeUrl,
    timeoutMs: STEAM_TIMEOUT_MS,
    readRetries: 0,
  });
  const config = loadConfig(fullEnv);
  const sweepers: SettlementSweeper[] = [];
  const deps = (overrides: Partial<ServiceDeps> = {}) => testServiceDeps({ db, config, steam, ...overrides });

  const post = (path: string) => (body: Record<string, unknown>, headers?: Record<string, string>) =>
    server.rest("POST", path, body, headers);
  return {
    sim,
    server,
    db,
    steam,
    shop: (options = {}) => seedShop(db, sim.control, TEST_MASTER_KEY, options),
    player: (shop) => mintPlayer(sim.control, shop.appId),
    begin: post("/v1/public/purchases:begin"),
    complete: post("/v1/public/purchases:complete"),
    deps,
    sweeper(clock, intervalMs, platform) {
      const sweeperDeps = deps({ now: () => clock.now, ...(platform && { steam: platform }) });
      const sweeper = createSettlementSweeper({
        deps: sweeperDeps,
        ...config.settlement,
        ...(intervalMs ? { intervalMs } : {}),
      });
      sweepers.push(sweeper);
      return sweeper;
    },
    async endFinalizeLease(purchaseId) {
      await db.$executeRaw`UPDATE purchases SET finalize_until = now() - interval '1 second' WHERE id = ${purchaseId}`;
    },
    async close() {
      await Promise.all(sweepers.map((sweeper) => sweeper.stop()));
      await steam.close();
      await server.close();
      await sim.close();
    },
  };
}

export type TracedPurchaseFixture = PurchaseFixture & { exporter: InMemorySpanExporter };

/**
 * The fixture with tracing turned on for this process, its spans kept in `exporter`; closing it
 * turns tracing off again.
 */
export async function startTracedPurchaseFixture(): Promise<TracedPurchaseFixture> {
  const { exporter, tracing } = startTestTracing();
  const f = await startPurchaseFixture({}, { tracing });
  return {
    ...f,
    exporter,
    async close() {
      await f.close();
      await tracing.shutdown();
    },
  };
}

/** Minutes after now, for a sweeper clock. */
export function minutesFromNow(minutes: number): Date {
  return new Date(Date.now() + minutes * 60_000);
}
