import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { createApp } from "../../../src/app.js";
import { loadConfig } from "../../../src/config.js";
import { createMeteringJob, type MeteringJob } from "../../../src/jobs/metering-job.js";
import { createTransferMover, type TransferMover } from "../../../src/jobs/transfer-mover.js";
import { createLogger } from "../../../src/logger.js";
import { createSimulatedPaymentProvider } from "../../../src/platform/billing/create-simulated-payment-provider.js";
import { createSteamClient } from "../../../src/platform/steam/create-steam-client.js";
import { createListener } from "../../../src/server/listener.js";
import { operationTypes } from "../../../src/services/operations/operation-types.js";
import { createWebhookEvents } from "../../../src/services/webhooks/resource-events.js";
import type { Db } from "../../../src/store/open-database.js";
import { testServiceDeps } from "../../support/service-deps.js";
import { createTestDatabase, type TestDatabase } from "../../support/test-database.js";
import { type RestResult, TEST_MASTER_KEY, TEST_OPERATOR_TOKEN } from "../../support/test-server.js";

// The whole service on a real listener with its background jobs NOT started: the test runs
// the mover and metering itself, on a clock it moves, so "in the middle of a move" is a
// state it decides rather than a race it hopes to win.

export interface Clock {
  now: Date;
}

export interface QuietServer {
  db: Db;
  testDb: TestDatabase;
  clock: Clock;
  client<S extends DescService>(service: S, token: string, protocol?: "connect" | "grpc"): Client<S>;
  rest(method: string, path: string, token: string, body?: unknown): Promise<RestResult>;
  /** A mover of its own, as a (re)started replica would run. */
  mover(): TransferMover;
  metering(): MeteringJob;
  /** The payment provider's side: the payer paid. */
  pay(sessionId: string): ReturnType<ReturnType<typeof createSimulatedPaymentProvider>["pay"]>;
  close(): Promise<void>;
}

export async function startQuietServer(start: Date, env: Record<string, string> = {}): Promise<QuietServer> {
  const testDb = await createTestDatabase();
  const db = testDb.database.prisma;
  const clock: Clock = { now: start };
  const now = () => clock.now;
  const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_READ_CACHE_MS: "0", ...env });
  const logger = createLogger("silent");
  const app = createApp({
    config,
    database: testDb.database,
    logger,
    secrets: { masterKey: TEST_MASTER_KEY, operatorToken: TEST_OPERATOR_TOKEN },
    now,
  });
  const listener = createListener({ handler: app.handler, connections: config.connections });
  const { port } = await listener.listen(0, "127.0.0.1");
  const baseUrl = `http://127.0.0.1:${port}`;
  const steam = createSteamClient({
    apiUrl: config.steam.apiUrl,
    storeUrl: config.steam.storeUrl,
    openIdUrl: config.steam.openIdUrl,
    timeoutMs: 1000,
    readRetries: 0,
  });
  const deps = testServiceDeps({
    db,
    config,
    steam,
    now,
    logger,
    webhookEvents: createWebhookEvents({ publicUrl: config.publicUrl }),
    fundingChanges: app.fundingChanges,
  });
  const jobs: { stop(): Promise<void> }[] = [];
  const registry = operationTypes();
  const provider = createSimulatedPaymentProvider({ db, now });
  return {
    db,
    testDb,
    clock,
    client(service, token, protocol = "connect") {
      const interceptors: Interceptor[] = [
        (next) => (req) => {
          req.header.set("authorization", `Bearer ${token}`);
          return next(req);
        },
      ];
      const transport =
        protocol === "grpc"
          ? createGrpcTransport({ baseUrl, interceptors })
          : createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors, jsonOptions: { registry } });
      return createClient(service, transport);
    },
    async rest(method, path, token, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
    mover() {
      const mover = createTransferMover({ deps, intervalMs: 60_000 });
      jobs.push(mover);
      return mover;
    },
    metering() {
      const job = createMeteringJob({ deps, intervalMs: 60_000 });
      jobs.push(job);
      return job;
    },
    pay: (sessionId) => provider.pay(sessionId),
    async close() {
      await Promise.all(jobs.map((job) => job.stop()));
      app.beginShutdown();
      await listener.close();
      await app.stop();
      await steam.close();
      await testDb.drop();
    },
  };
}
