import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { type SteamSimulator, startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import { DOLLAR, seedOffer } from "../support/seed.js";
import { type SeededShop, seedShop } from "../support/seed-purchases.js";
import { startTestServer, TEST_MASTER_KEY, type TestServer } from "../support/test-server.js";
import { type ServiceGateway, startServiceGateway } from "./service-gateway.js";

/**
 * What every engine's scenario runner is given (docs/game-integration.md "Proving the
 * clients"): the service behind a gateway whose failures the runner arms (502, 504, resets, a
 * held begin answer), a second instance over the same database whose per-address rate limit is
 * tiny (a real 429), the campaign, the simulator's control URL, which the clients'
 * simulator-backed Steam binding uses to get a ticket and to play the overlay, and the short
 * poll interval and authorization timeout the runners set so a run stays short.
 */
export interface GameHarness {
  env: Record<string, string>;
  sim: SteamSimulator;
  server: TestServer;
  gateway: ServiceGateway;
  shop: SeededShop;
  close(): Promise<void>;
}

/** The poll interval the runners set (the clients' default is 2 s); verify checks the spacing. */
export const POLL_INTERVAL_MS = 500;
/** The authorization timeout the runners set for the callback-timeout scenario. */
export const AUTHORIZATION_TIMEOUT_MS = 1000;
/** The runners' first retry backoff (the clients' default is 0.5 s), doubling up to 2 s. */
export const RETRY_INITIAL_BACKOFF_MS = 300;

// Two public calls per address per second on the limited instance: a runner's burst of reads
// meets a 429 and has to back off for the window to pass.
const LIMITED_PER_ADDRESS = "2";
const LIMITED_WINDOW_SECONDS = "1";
const PLAYER_STEAMID = "76561198000004242";

export async function startGameHarness(): Promise<GameHarness> {
  const sim = await startSteamSimulator({ port: 0 });
  const steamEnv = {
    STEAM_API_URL: sim.url,
    STEAM_STORE_URL: sim.storeUrl,
    STEAM_OPENID_URL: sim.openIdUrl,
    STEAM_TIMEOUT_MS: "1000",
    // The settlement sweeper keeps away from a run's purchases: what settles them is the client
    // (an order left approved by never-settles stays so for verify-scenarios to see).
    SETTLEMENT_SETTLE_AFTER_MS: "3600000",
  };
  const server = await startTestServer({ env: steamEnv });
  const limited = await startTestServer({
    db: server.db,
    env: {
      ...steamEnv,
      RATE_LIMIT_PER_ADDRESS: LIMITED_PER_ADDRESS,
      RATE_LIMIT_WINDOW_SECONDS: LIMITED_WINDOW_SECONDS,
    },
  });
  // Verified and transferred (ready), exact balance shown, $20 of credit already there.
  const shop = await seedShop(server.db.database.prisma, sim.control, TEST_MASTER_KEY, {
    visibility: "EXACT_BALANCE",
    balanceNanos: 20n * DOLLAR,
    offer: { displayName: "A week of servers", priceNanos: 5n * DOLLAR, creditNanos: 3n * DOLLAR },
  });
  await seedOffer(server.db.database.prisma, shop.campaignId, {
    displayName: "A month of servers",
    priceNanos: 15n * DOLLAR,
    creditNanos: 10n * DOLLAR,
  });
  await sim.control.addPlayer({ steamid: PLAYER_STEAMID });
  // What Steam's order book said as a held begin answer was handed to the client.
  const gateway = await startServiceGateway({
    upstream: server.baseUrl,
    onRelease: async (exchange) => ({
      orderStatus: (await sim.control.getOrder(String(exchange.upstreamBody?.orderId)))?.status,
    }),
  });
  return {
    env: {
      ENCORE_BASE_URL: gateway.url,
      ENCORE_GATEWAY_URL: gateway.url,
      ENCORE_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
      ENCORE_AUTHORIZATION_TIMEOUT_MS: String(AUTHORIZATION_TIMEOUT_MS),
      ENCORE_RETRY_INITIAL_BACKOFF_MS: String(RETRY_INITIAL_BACKOFF_MS),
      ENCORE_LIMITED_BASE_URL: limited.baseUrl,
      ENCORE_CAMPAIGN_KEY: shop.campaignKey,
      ENCORE_OFFER_ID: shop.offerId,
      STEAM_SIM_URL: sim.url,
      STEAM_APP_ID: String(shop.appId),
      STEAM_ID: PLAYER_STEAMID,
    },
    sim,
    server,
    gateway,
    shop,
    async close() {
      await gateway.close();
      await limited.close();
      await server.close();
      await sim.close();
    },
  };
}

export interface ScenarioRun {
  code: number | null;
  output: string;
  /** `SCENARIO <name> OK <json>` lines, by name. */
  passed: Map<string, Record<string, unknown>>;
  failed: string[];
}

/**
 * Runs one engine's scenario runner as a child process. Each runner prints one line per
 * scenario, `SCENARIO <name> OK <json facts>` or `SCENARIO <name> FAIL <why>`, and exits
 * non-zero when any failed.
 */
export function runScenarios(options: {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  timeoutMs: number;
}): Promise<ScenarioRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const passed = new Map<string, Record<string, unknown>>();
      const failed: string[] = [];
      for (const line of output.split("\n")) {
        const match = /^SCENARIO (\S+) (OK|FAIL) ?(.*)$/.exec(line.trim());
        if (!match) continue;
        const [, name = "", verdict, rest = ""] = match;
        if (verdict === "OK") passed.set(name, rest ? (JSON.parse(rest) as Record<string, unknown>) : {});
        else failed.push(`${name}: ${rest}`);
      }
      resolve({ code, output, passed, failed });
    });
  });
}

/** The scenarios every engine runs, in the order the runners run them. */
export const SCENARIOS = [
  "language",
  "buy",
  "decline",
  "dismiss",
  "rate-limited",
  "begin-503",
  "offers-retry",
  "begin-retry",
  "complete-retry",
  "settles-late",
  "never-settles",
  "callback-timeout",
  "early-callback",
] as const;

/**
 * Skips only on a developer machine without the engine; in CI (CI=true or
 * REQUIRE_GAME_CLIENTS=1, which .ci/run sets) a missing engine fails the run.
 */
export function engineAvailable(binary: string): boolean {
  if (existsSync(binary)) return true;
  if (process.env.CI === "true" || process.env.REQUIRE_GAME_CLIENTS === "1") {
    throw new Error(`${binary} is missing; .ci/run installs it (apt-get install)`);
  }
  return false;
}
