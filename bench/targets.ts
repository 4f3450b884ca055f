import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { CampaignService } from "../gen/encore/campaign/v1/campaign_service_pb.js";
import { PublicFundingSchema } from "../gen/encore/campaign/v1/public_pb.js";
import { FundingVisibility } from "../gen/encore/campaign/v1/visibility_pb.js";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { createListener } from "../src/server/listener.js";
import { createSteamSimControl } from "../src/sim/steam/steam-sim-control.js";
import { DOLLAR, seedCampaign, seedOffer, seedUsage } from "../test/support/seed.js";
import { seedShop } from "../test/support/seed-purchases.js";
import { watchStatements } from "../test/support/sent-statements.js";
import { serviceNodeOptions } from "../test/support/service-node-options.js";
import { createTestDatabase } from "../test/support/test-database.js";
import { perfNodeOptions } from "./perf-record.js";
import type { ProbeAnswer, ProbeRequest } from "./service-probe.js";
import { benchSettings } from "./settings.js";

const MASTER_KEY = Buffer.alloc(32, 7);

// One benchmark target per child process, so the load generator never shares its event loop.

const FIXED_BODY = JSON.stringify({
  funded: true,
  balance: { currencyCode: "USD", units: "120", nanos: 0 },
  runwayDays: "30",
  visibility: "FUNDING_VISIBILITY_EXACT_BALANCE",
  purchasable: true,
  unavailableReason: "",
});

export type TargetName = "bare-node-http" | "trivial-connect" | "service" | "purchase-service";

/** A campaign players can buy from, with the app its simulator key owns. */
export interface BenchShop {
  campaignKey: string;
  offerId: string;
  appId: number;
}

export interface StartedTarget {
  port: number;
  campaignKey: string;
  /** For "purchase-service": BENCH_CAMPAIGNS campaigns ready to sell through BENCH_STEAM_URL's simulator. */
  shops?: BenchShop[];
  /** SQL statements sent to PostgreSQL so far (every round trip, BEGIN and COMMIT included). */
  queryCount?: () => Promise<number>;
  /** When the target is other processes than this one (the service as `npm start` runs it). */
  pids?: () => number[];
  /**
   * The V8 CPU profile of a measured interval of a service in a process of its own (with
   * BENCH_CPU_PROF; service-probe.ts); a target in this process is profiled by target-process.ts.
   */
  profile?: { start(): Promise<void>; stop(file: string): Promise<void> };
  stop?: () => Promise<void>;
}

// Counts every statement the pg driver sends (Prisma's adapter and raw queries alike): the
// service's round trips to the database, without pg_stat_statements (not preloaded here).
let queries = 0;
const queryCount = () => Promise.resolve(queries);
watchStatements(() => {
  queries += 1;
});

export async function startTarget(name: TargetName): Promise<StartedTarget> {
  if (name === "bare-node-http") {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(FIXED_BODY);
    });
    return { port: await listen(server), campaignKey: "" };
  }
  if (name === "trivial-connect") {
    const fixed = create(PublicFundingSchema, {
      funded: true,
      balance: { currencyCode: "USD", units: 120n, nanos: 0 },
      runwayDays: 30n,
      visibility: FundingVisibility.EXACT_BALANCE,
      purchasable: true,
    });
    const handler = connectNodeAdapter({
      routes: (router) => router.service(CampaignService, { getPublicFunding: () => fixed }),
    });
    return { port: await listen(http.createServer(handler)), campaignKey: "" };
  }
  const purchases = name === "purchase-service";
  // The service as operators run it, in a process of its own, wherever it can be (PostgreSQL):
  // the bundle npm start runs, without this process's seeding and bench code beside it
  // (docs/performance.md, "The service as npm start runs it"). On PGlite, in this process.
  if (process.env.BENCH_DATABASE_URL) return startServiceProcess(purchases);
  return startService(purchases);
}

// Outstanding grows with every credit and nothing settles it during a run.
const NO_LIMIT = 10n ** 18n;

/** A fresh database on BENCH_DATABASE_URL's server (dropped on stop), else in-process PGlite. */
async function seedBenchDatabase(purchases: boolean) {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) process.env.TEST_DATABASE_URL = serverUrl;
  else delete process.env.TEST_DATABASE_URL;
  const db = await createTestDatabase();
  try {
    const prisma = db.database.prisma;
    const campaign = await seedCampaign(prisma, { balanceNanos: 120n * DOLLAR });
    await seedOffer(prisma, campaign.campaignId);
    await seedUsage(prisma, campaign.projectId, 28n * DOLLAR, new Date(Date.now() - 86_400_000));
    const steamUrl = process.env.BENCH_STEAM_URL;
    const shops: BenchShop[] = [];
    if (purchases && steamUrl) {
      const control = createSteamSimControl(steamUrl);
      // run.ts sets BENCH_CAMPAIGNS for each purchase target: 1 for the hot campaign.
      for (let i = 0; i < benchSettings().BENCH_CAMPAIGNS; i++) {
        const shop = await seedShop(prisma, control, MASTER_KEY, { outstandingLimitNanos: NO_LIMIT });
        shops.push({ campaignKey: shop.campaignKey, offerId: shop.offerId, appId: shop.appId });
      }
    }
    return { db, campaign, shops };
  } catch (error) {
    await db.drop();
    throw error;
  }
}

/** The service's configuration in every target: only the load's own settings differ from the defaults. */
function benchEnv(): Record<string, string> {
  const steamUrl = process.env.BENCH_STEAM_URL;
  return {
    LOG_LEVEL: "warn",
    // The limiter still runs on every call; it just never trips under a benchmark's load.
    RATE_LIMIT_PER_ADDRESS: "1000000000",
    RATE_LIMIT_BEGIN_PER_CAMPAIGN: "1000000000",
    // Begins awaiting their ticket check count per address too.
    RATE_LIMIT_FAILED_TICKETS_PER_ADDRESS: "1000000000",
    RATE_LIMIT_FAILED_TICKETS_PER_CAMPAIGN: "1000000000",
    ...(steamUrl ? { STEAM_API_URL: steamUrl, STEAM_STORE_URL: `${steamUrl}/store` } : {}),
    ...(process.env.PUBLIC_READ_CACHE_MS ? { PUBLIC_READ_CACHE_MS: process.env.PUBLIC_READ_CACHE_MS } : {}),
  };
}

async function startService(purchases: boolean): Promise<StartedTarget> {
  const { db, campaign, shops } = await seedBenchDatabase(purchases);
  const config = loadConfig(benchEnv());
  const app = createApp({
    config,
    database: db.database,
    logger: createLogger(config.logLevel),
    secrets: { masterKey: MASTER_KEY, operatorToken: "bench-operator-token-0123456789" },
  });
  const listener = createListener({ handler: app.handler, connections: config.connections });
  const address = await listener.listen(0, "127.0.0.1");
  return {
    port: address.port,
    campaignKey: campaign.campaignKey,
    shops,
    queryCount,
    async stop() {
      app.beginShutdown();
      await listener.close();
      await app.stop();
      await db.drop();
    },
  };
}

// The service's own entry, next to this file's folder in dist/, and the probe it carries in the bench.
const SERVICE_ENTRY = fileURLToPath(new URL("../src/main.js", import.meta.url));
const SERVICE_PROBE = new URL(`./service-probe${import.meta.url.slice(-3)}`, import.meta.url).href;

/**
 * Asks the service's probe, one request at a time (an answer names no request), and answers the
 * statements it has counted.
 */
function askProbe(service: ChildProcess): (request: ProbeRequest) => Promise<number> {
  const ask = (request: ProbeRequest) =>
    new Promise<number>((resolve, reject) => {
      const onExit = () => reject(new Error("the service exited before its probe answered"));
      service.once("exit", onExit);
      service.once("message", (answer: ProbeAnswer) => {
        service.off("exit", onExit);
        resolve(answer.statements);
      });
      service.send(request);
    });
  let previous: Promise<unknown> = Promise.resolve();
  return (request) => {
    const next = previous.catch(() => undefined).then(() => ask(request));
    previous = next;
    return next;
  };
}

/**
 * The service as an operator runs it on this machine: `node dist/src/main.js` with npm start's
 * node options, on a database of its own on BENCH_DATABASE_URL's server. It carries
 * service-probe.ts, which counts its statements and profiles a measured interval; with
 * BENCH_PERF it writes the map of its functions perf reads (the recording: target-process.ts).
 */
async function startServiceProcess(purchases: boolean): Promise<StartedTarget> {
  const { db, campaign, shops } = await seedBenchDatabase(purchases);
  if (db.target.kind !== "postgres") throw new Error("the service as a process needs BENCH_DATABASE_URL");
  const port = await freePort();
  const profiling = ["--import", SERVICE_PROBE, ...perfNodeOptions()];
  const service = spawn(process.execPath, [...profiling, ...serviceNodeOptions(), SERVICE_ENTRY], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      PATH: process.env.PATH ?? "",
      ...benchEnv(),
      DATABASE_URL: db.target.url,
      ENCORE_MASTER_KEY: MASTER_KEY.toString("base64"),
      OPERATOR_TOKEN: "bench-operator-token-0123456789",
      HOST: "127.0.0.1",
      PORT: String(port),
      METRICS_PORT: "off",
    },
  });
  const exited = new Promise<void>((resolve) => service.once("exit", () => resolve()));
  const stop = async () => {
    service.kill("SIGTERM");
    await exited;
    await db.drop();
  };
  // A service that never gets ready (or is stopped while it starts) leaves no database behind.
  await untilReady(port, exited).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const pids = [service.pid ?? 0];
  const probe = askProbe(service);
  return {
    port,
    campaignKey: campaign.campaignKey,
    shops,
    pids: () => pids,
    queryCount: () => probe({ type: "probe:statements" }),
    profile: {
      start: () => probe({ type: "probe:profile-start" }).then(() => undefined),
      stop: (file: string) => probe({ type: "probe:profile-stop", file }).then(() => undefined),
    },
    stop,
  };
}

async function untilReady(port: number, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (let i = 0; i < 600 && !gone; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(gone ? "the service exited before it was ready" : "the service was not ready in 60 s");
}

async function freePort(): Promise<number> {
  const probe = http.createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}
