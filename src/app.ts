import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ConnectRouter } from "@connectrpc/connect";
import type { Logger } from "pino";
import { AccountService } from "../gen/encore/account/v1/account_service_pb.js";
import { AuditService } from "../gen/encore/audit/v1/audit_service_pb.js";
import { BillingService } from "../gen/encore/billing/v1/billing_service_pb.js";
import { CampaignService } from "../gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService } from "../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorAuditService } from "../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../gen/encore/webhook/v1/webhook_service_pb.js";
import { Operations } from "../gen/google/longrunning/operations_pb.js";
import type { Config } from "./config.js";
import type { ServiceDeps } from "./core/deps.js";
import { createFundingChanges } from "./core/funding-changes.js";
import { createPageTokens } from "./core/page-token.js";
import type { MasterKeys } from "./core/secret-box.js";
import { createRefuse } from "./errors/refusals.js";
import { createFundRoutes } from "./fund/fund-routes.js";
import type { Job } from "./jobs/job.js";
import { createMeteringJob } from "./jobs/metering-job.js";
import {
  createAuditPurge,
  createCheckoutExpiry,
  createSessionPurge,
  createWebhookPurge,
  createWebSessionPurge,
} from "./jobs/purges.js";
import { createReconciliationJob } from "./jobs/reconciliation-job.js";
import { createSettlementSweeper } from "./jobs/settlement-sweeper.js";
import { createTransferMover } from "./jobs/transfer-mover.js";
import { createVerificationJob } from "./jobs/verification-job.js";
import { createWebhookDeliveryJob } from "./jobs/webhook-delivery-job.js";
import { createSimulatedPaymentProvider } from "./platform/billing/create-simulated-payment-provider.js";
import { acceptedWebhookSecrets } from "./platform/billing/payment-signature.js";
import { createEmbeddedHosting } from "./platform/hosting/create-embedded-hosting.js";
import { createSteamClient } from "./platform/steam/create-steam-client.js";
import { createClientAddresses } from "./server/client-address.js";
import { createCors } from "./server/cors.js";
import { createRequestHandler } from "./server/create-request-handler.js";
import { createAuditInterceptor } from "./server/interceptors/audit.js";
import { createAuthenticateInterceptor } from "./server/interceptors/authenticate.js";
import { createFundingWritesInterceptor } from "./server/interceptors/funding-writes.js";
import { moneyFieldsInterceptor } from "./server/interceptors/money-fields.js";
import { createRateLimit, describeRateLimitStatus } from "./server/interceptors/rate-limit.js";
import { createRequestLogInterceptor } from "./server/interceptors/request-log.js";
import { requiredFieldsInterceptor } from "./server/interceptors/required-fields.js";
import { createRpcMetricsInterceptor, observeBeforeBody } from "./server/interceptors/rpc-metrics.js";
import { textFieldsInterceptor } from "./server/interceptors/text-fields.js";
import { createTraceInterceptor } from "./server/interceptors/trace.js";
import { createAccountService } from "./services/account/account-service.js";
import { createAuditService } from "./services/audit/audit-service.js";
import { createOperatorAuditService } from "./services/audit/operator-audit-service.js";
import { createBillingService } from "./services/billing/billing-service.js";
import { createCampaignService } from "./services/campaign/campaign-service.js";
import { createHostingService } from "./services/hosting/hosting-service.js";
import { operationTypes } from "./services/operations/operation-types.js";
import { createOperationsService } from "./services/operations/operations-service.js";
import { createOperatorService } from "./services/operator/operator-service.js";
import { createWebhookEvents } from "./services/webhooks/resource-events.js";
import { createWebhookService } from "./services/webhooks/webhook-service.js";
import { runStopSteps } from "./startup/stop-steps.js";
import { readAllowedOrigins } from "./store/allowed-origins.js";
import { countFailedAuthentication, insertAuditEvent } from "./store/audit-events.js";
import { readBacklog } from "./store/backlog.js";
import { announceEveryCampaignChanged, EVERY_CAMPAIGN, FUNDING_CHANGED_CHANNEL } from "./store/funding-channel.js";
import type { Database } from "./store/open-database.js";
import { createMetrics } from "./telemetry/metrics.js";
import { createSteamObserver } from "./telemetry/platform-observer.js";
import { createTracing, type Tracing } from "./telemetry/tracing.js";

export interface AppOptions {
  config: Readonly<Config>;
  database: Database;
  logger: Logger;
  /**
   * ENCORE_MASTER_KEY (or the embedded database's), ENCORE_MASTER_KEY_PREVIOUS during a master
   * key rotation (docs/deploy.md), OPERATOR_TOKEN.
   */
  secrets: { masterKey: Buffer; previousMasterKey?: Buffer; operatorToken: string };
  now?: () => Date;
  /** Tracing made by the caller (tests); otherwise made here when config.tracing is set. */
  tracing?: Tracing;
  /** How often a gRPC health Watch stream looks at readiness again; default 5 s. */
  healthWatchIntervalMs?: number;
  /** The studio console's build folder; default CONSOLE_BUILD. */
  consoleDir?: string;
}

export type App = ReturnType<typeof createApp>;

// Spec 8: a request body is at most 64 KiB.
const MAX_BODY_BYTES = 64 * 1024;
// Reads are retried with backoff inside one call; writes never are.
const STEAM_READ_RETRIES = 2;
// Spec 8 CORS: the operator's allowed origins are read again at most this often.
const ALLOWED_ORIGINS_CACHE_MS = 5_000;
// Background transfers look for work this often when idle; metering charges whole hours.
const TRANSFER_MOVER_INTERVAL_MS = 1_000;
const METERING_INTERVAL_MS = 60_000;
// Generated from proto/ by `npm run generate` (buf.gen.openapi.yaml) and checked in.
const OPENAPI_DOCUMENT = new URL("../openapi/encore.openapi.json", import.meta.url);
// Who may frame the funding page: nobody (a payment page; docs/game-integration.md says how the
// console previews it).
const FUND_FRAME_ANCESTORS = "'none'";
// The studio console, built by `npm run build` into dist/console. The folder above
// this module is the repository (it holds package.json) when the sources run, dist/ when the
// build runs (the bundle is dist/src/main.js).
const ABOVE_SRC = new URL("../", import.meta.url);
const CONSOLE_BUILD = fileURLToPath(
  existsSync(new URL("package.json", ABOVE_SRC)) ? new URL("dist/console/", ABOVE_SRC) : new URL("console/", ABOVE_SRC),
);

/** The one composition root: the only module that picks concrete adapters. */
export function createApp(options: AppOptions) {
  const { config, database, logger, secrets } = options;
  const now = options.now ?? (() => new Date());
  const masterKeys: MasterKeys = { current: secrets.masterKey, previous: secrets.previousMasterKey };
  const ownTracing = options.tracing ? undefined : config.tracing && createTracing(config.tracing);
  const tracer = (options.tracing ?? ownTracing)?.tracer;
  const metrics = createMetrics({
    backlog: () => readBacklog(database.prisma),
    poolStats: database.poolStats,
    ...(config.redisUrl === undefined
      ? {}
      : {
          rateLimitStoreUp: () => {
            const status = rateLimit.status();
            return status.store === "redis" && status.redis === "ready";
          },
        }),
    now,
    onScrapeError: (error) => logger.warn({ err: error }, "metrics: the backlog could not be read"),
  });
  const steam = createSteamClient({
    ...config.steam,
    readRetries: STEAM_READ_RETRIES,
    logger: logger.child({ component: "steam" }),
    observer: createSteamObserver(metrics, tracer),
  });
  // Public funding changed by a credit here or on another replica (PostgreSQL LISTEN; PGlite is
  // one process's alone): the public read cache forgets the campaign.
  const fundingChanges = createFundingChanges({
    ...(database.listen && { announceToReplicas: () => announceEveryCampaignChanged(database.prisma) }),
    onAnnounceFailed: (error) =>
      logger.warn({ err: error }, "funding change notifications: other replicas not told; their cache expires"),
  });
  const fundingListener = database.listen?.(FUNDING_CHANGED_CHANNEL, {
    onNotify: (payload) => (payload === EVERY_CAMPAIGN ? fundingChanges.changedAll() : fundingChanges.changed(payload)),
    onListening: () => fundingChanges.changedAll(),
    onError: (error) => logger.warn({ err: error }, "funding change notifications: connection failed; retrying"),
  });
  const base = {
    db: database.prisma,
    refuse: createRefuse(config.errorDomain),
    now,
    steam,
    hosting: createEmbeddedHosting(database.prisma),
    masterKeys,
    pageTokens: createPageTokens(masterKeys),
    config,
    logger,
    metrics,
    webhookEvents: createWebhookEvents({ publicUrl: config.publicUrl }),
    fundingChanges,
  };
  // The verification job needs none of what it is woken by, so it is built first and every
  // service is given its wake-up with the rest of its dependencies.
  const verification = createVerificationJob({ deps: base, intervalMs: config.verificationIntervalMs });
  const deps: ServiceDeps = { ...base, wakeVerification: verification.wake };

  // The payment provider is simulated here (DESIGN 2: platform/billing); nothing is charged.
  const payments = createSimulatedPaymentProvider({ db: database.prisma, now });
  const routes = (router: ConnectRouter) => {
    router.service(CampaignService, createCampaignService(deps));
    router.service(AccountService, createAccountService(deps));
    router.service(OperatorService, createOperatorService(deps));
    router.service(HostingService, createHostingService(deps));
    router.service(BillingService, createBillingService(deps, payments));
    router.service(Operations, createOperationsService(deps));
    router.service(WebhookService, createWebhookService(deps));
    router.service(AuditService, createAuditService(deps));
    router.service(OperatorAuditService, createOperatorAuditService(deps));
  };

  const webhookDelivery = createWebhookDeliveryJob({ deps, intervalMs: config.webhooks.deliveryIntervalMs });
  const jobs: Job[] = [
    createSettlementSweeper({ deps, ...config.settlement }),
    verification,
    createTransferMover({ deps, intervalMs: TRANSFER_MOVER_INTERVAL_MS }),
    createMeteringJob({ deps, intervalMs: METERING_INTERVAL_MS }),
    createSessionPurge({ deps }),
    createWebSessionPurge({ deps }),
    createCheckoutExpiry({ deps }),
    createReconciliationJob({ deps, intervalMs: config.reconciliationIntervalMs }),
    webhookDelivery,
    createAuditPurge({ deps, retentionDays: config.auditRetentionDays }),
    createWebhookPurge({ deps, retentionDays: config.webhooks.retentionDays }),
  ];
  const shutdown = new AbortController();
  const rateLimit = createRateLimit({
    ...config.rateLimit,
    redisUrl: config.redisUrl,
    logger,
    onRefused: (limit) => metrics.rateLimitRefused(limit),
  });

  const clientAddresses = createClientAddresses(config.proxyProtocolFrom);
  const handler = createRequestHandler({
    routes,
    clientAddresses,
    // First to last on the way in: the trace span (when tracing is on), count and time, record
    // writes and count failed authentications in the audit log (docs/audit-log.md), log (and
    // contain unexpected failures), rate limit public calls before any work (spec 8),
    // authenticate management calls (429 first once the address spent its failed
    // authentications, docs/abuse-limits.md), refuse text and amounts the store cannot hold
    // (spec 2.2), validate required fields, and after a management write forget the public
    // reads it may have changed.
    interceptors: [
      ...(tracer ? [createTraceInterceptor(tracer)] : []),
      createRpcMetricsInterceptor(metrics),
      createAuditInterceptor({
        record: (event) => insertAuditEvent(database.prisma, event),
        countFailedAuthentication: (event, key) => countFailedAuthentication(database.prisma, event, key),
        failedAuthWindowSeconds: config.rateLimit.windowSeconds,
        now,
        logger,
        onWriteFailed: () => metrics.auditWriteFailed(),
      }),
      createRequestLogInterceptor(logger),
      rateLimit.interceptor,
      createAuthenticateInterceptor({
        db: database.prisma,
        operatorToken: secrets.operatorToken,
        now,
        failedAuth: rateLimit.failedAuth,
      }),
      textFieldsInterceptor,
      moneyFieldsInterceptor,
      requiredFieldsInterceptor,
      createFundingWritesInterceptor(fundingChanges),
    ],
    maxBodyBytes: MAX_BODY_BYTES,
    beforeRestBody: observeBeforeBody(rateLimit.admitBeforeBody, metrics, logger),
    registry: operationTypes(),
    ready: async () => {
      await database.prisma.$queryRaw`SELECT 1`;
    },
    // Redis only shares the rate limits: without it each replica counts alone (README), so it
    // is reported here but never makes the service unready.
    readyDetail: () => [describeRateLimitStatus(rateLimit.status())],
    shutdownSignal: shutdown.signal,
    openApiDocument: readFileSync(OPENAPI_DOCUMENT, "utf8"),
    console: { dir: options.consoleDir ?? CONSOLE_BUILD, storefrontSharePercent: config.storefrontSharePercent },
    fund: createFundRoutes({
      deps,
      publicUrl: config.publicUrl,
      openIdUrl: config.steam.openIdUrl,
      steamOrigins: [...new Set([new URL(config.steam.openIdUrl).origin, new URL(config.steam.storeUrl).origin])],
      frameAncestors: FUND_FRAME_ANCESTORS,
      limits: rateLimit.fund,
    }),
    healthWatchIntervalMs: options.healthWatchIntervalMs,
    logger,
    cors: createCors({ allowedOrigins: () => readAllowedOrigins(database.prisma), cacheMs: ALLOWED_ORIGINS_CACHE_MS }),
    paymentWebhook: {
      secrets: acceptedWebhookSecrets(config.paymentWebhookSecret, masterKeys),
      db: database.prisma,
      now,
      failedAuth: rateLimit.failedAuth,
    },
  });

  return {
    handler,
    /** The listener reads proxies' headers (PROXY_PROTOCOL_FROM) into it. */
    clientAddresses,
    /** Tests run its passes, and give fundingChanges to the jobs they run, themselves. */
    webhookDelivery,
    metrics,
    fundingChanges,
    start() {
      for (const job of jobs) job.start();
    },
    /**
     * Before the listener closes: readiness turns false (`/readyz` 503, gRPC health NOT_SERVING)
     * and health Watch streams end, so draining is not held open by them.
     */
    beginShutdown() {
      shutdown.abort();
    },
    /** Stops background jobs and closes platform connections (the listener is its owner's). */
    async stop(): Promise<void> {
      // Every step runs even if one fails (a collector that is down must not keep Steam's
      // connections or Redis open); each failure is one warning line, not a rejection.
      await runStopSteps(
        [
          { name: "jobs", run: () => stopJobs(jobs) },
          { name: "steam", run: () => steam.close() },
          { name: "funding change notifications", run: () => fundingListener?.close() },
          { name: "rate limits", run: () => rateLimit.close() },
          { name: "tracing", run: () => ownTracing?.shutdown() },
        ],
        logger,
      );
    },
  };
}

/** Stops the jobs together (each waits for its run in progress); rejects once if any failed. */
async function stopJobs(jobs: Job[]): Promise<void> {
  const results = await Promise.allSettled(jobs.map((job) => job.stop()));
  const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  if (failures.length > 0) throw new AggregateError(failures, "jobs did not stop");
}
