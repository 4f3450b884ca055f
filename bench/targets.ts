import http from "node:http";
import { create } from "@bufbuild/protobuf";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { CampaignService } from "../gen/encore/campaign/v1/campaign_service_pb.js";
import { PublicFundingSchema } from "../gen/encore/campaign/v1/public_pb.js";
import { FundingVisibility } from "../gen/encore/campaign/v1/visibility_pb.js";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { createListener } from "../src/server/listener.js";
import { DOLLAR, seedCampaign, seedOffer, seedUsage } from "../test/support/seed.js";
import { createTestDatabase } from "../test/support/test-database.js";

// One benchmark target per child process, so the load generator never shares its event loop.

const FIXED_BODY = JSON.stringify({
  funded: true,
  balance: { currencyCode: "USD", units: "120", nanos: 0 },
  runwayDays: "30",
  visibility: "FUNDING_VISIBILITY_EXACT_BALANCE",
  purchasable: true,
  unavailableReason: "",
});

export type TargetName = "bare-node-http" | "trivial-connect" | "service";

export interface StartedTarget {
  port: number;
  campaignKey: string;
  stop?: () => Promise<void>;
}

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
  return startService();
}

async function startService(): Promise<StartedTarget> {
  // A fresh database on BENCH_DATABASE_URL's server (dropped on stop), else in-process PGlite.
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) process.env.TEST_DATABASE_URL = serverUrl;
  else delete process.env.TEST_DATABASE_URL;
  const db = await createTestDatabase();
  const prisma = db.database.prisma;
  const campaign = await seedCampaign(prisma, { balanceNanos: 120n * DOLLAR });
  await seedOffer(prisma, campaign.campaignId);
  await seedUsage(prisma, campaign.projectId, 28n * DOLLAR, new Date(Date.now() - 86_400_000));
  const config = loadConfig({
    LOG_LEVEL: "warn",
    // The load comes from one address; the limiter still runs on every call, it just never trips.
    RATE_LIMIT_PER_ADDRESS: "1000000000",
    ...(process.env.PUBLIC_READ_CACHE_MS ? { PUBLIC_READ_CACHE_MS: process.env.PUBLIC_READ_CACHE_MS } : {}),
  });
  const app = createApp({
    config,
    database: db.database,
    logger: createLogger(config.logLevel),
    secrets: { masterKey: Buffer.alloc(32, 7), operatorToken: "bench-operator-token-0123456789" },
  });
  const listener = createListener({ handler: app.handler });
  const address = await listener.listen(0, "127.0.0.1");
  return {
    port: address.port,
    campaignKey: campaign.campaignKey,
    async stop() {
      await listener.close();
      await app.stop();
      await db.drop();
    },
  };
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}
