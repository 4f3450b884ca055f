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
import { migrate } from "../src/store/migrate.js";
import { openDatabase } from "../src/store/open-database.js";
import { DOLLAR, seedCampaign, seedOffer, seedUsage } from "../test/support/seed.js";

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
  const url = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: "warn",
    // The load comes from one address; the limiter still runs on every call, it just never trips.
    RATE_LIMIT_PER_ADDRESS: "1000000000",
    ...(url
      ? {
          DATABASE_URL: url,
          ENCORE_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
          OPERATOR_TOKEN: "bench-operator-token-0123456789",
        }
      : {}),
  });
  const database = await openDatabase(url ? { kind: "postgres", url } : { kind: "pglite" });
  const sql = await database.openSqlRunner();
  await migrate(sql, new URL("../prisma/migrations", import.meta.url).pathname);
  await sql.close();
  const campaign = await seedCampaign(database.prisma, { balanceNanos: 120n * DOLLAR });
  await seedOffer(database.prisma, campaign.campaignId);
  await seedUsage(database.prisma, campaign.projectId, 28n * DOLLAR, new Date(Date.now() - 86_400_000));
  const app = createApp({
    config,
    database,
    logger: createLogger("warn"),
    secrets: { masterKey: Buffer.alloc(32, 7), operatorToken: "bench-operator-token-0123456789" },
  });
  const listener = createListener({ handler: app.handler });
  const address = await listener.listen(0, "127.0.0.1");
  return { port: address.port, campaignKey: campaign.campaignKey };
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}
