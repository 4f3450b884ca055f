import type { ConnectRouter } from "@connectrpc/connect";
import type { Logger } from "pino";
import { AccountService } from "../gen/encore/account/v1/account_service_pb.js";
import { BillingService } from "../gen/encore/billing/v1/billing_service_pb.js";
import { CampaignService } from "../gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService } from "../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorService } from "../gen/encore/operator/v1/operator_service_pb.js";
import { Operations } from "../gen/google/longrunning/operations_pb.js";
import type { Config } from "./config.js";
import { createRefuse } from "./errors/refusals.js";
import { createCheckoutExpiry } from "./jobs/checkout-expiry.js";
import type { Job } from "./jobs/job.js";
import { createMeteringJob } from "./jobs/metering-job.js";
import { createSessionPurge } from "./jobs/session-purge.js";
import { createSettlementSweeper } from "./jobs/settlement-sweeper.js";
import { createTransferMover } from "./jobs/transfer-mover.js";
import { createVerificationJob } from "./jobs/verification-job.js";
import { createSimulatedPaymentProvider } from "./platform/billing/create-simulated-payment-provider.js";
import { paymentWebhookSecret } from "./platform/billing/payment-signature.js";
import { createEmbeddedHosting } from "./platform/hosting/create-embedded-hosting.js";
import { createSteamClient } from "./platform/steam/create-steam-client.js";
import { createCors } from "./server/cors.js";
import { createRequestHandler } from "./server/create-request-handler.js";
import { createAuthenticateInterceptor } from "./server/interceptors/authenticate.js";
import { createRateLimit } from "./server/interceptors/rate-limit.js";
import { createRequestLogInterceptor } from "./server/interceptors/request-log.js";
import { requiredFieldsInterceptor } from "./server/interceptors/required-fields.js";
import { textFieldsInterceptor } from "./server/interceptors/text-fields.js";
import type { RequestHandler } from "./server/listener.js";
import { createAccountService } from "./services/account/account-service.js";
import { createBillingService } from "./services/billing/billing-service.js";
import { createCampaignService } from "./services/campaign/campaign-service.js";
import type { ServiceDeps } from "./services/deps.js";
import { createHostingService } from "./services/hosting/hosting-service.js";
import { operationTypes } from "./services/operations/operation-types.js";
import { createOperationsService } from "./services/operations/operations-service.js";
import { createOperatorService } from "./services/operator/operator-service.js";
import { readAllowedOrigins } from "./store/allowed-origins.js";
import type { Database } from "./store/open-database.js";

export interface AppOptions {
  config: Readonly<Config>;
  database: Database;
  logger: Logger;
  secrets: { masterKey: Buffer; operatorToken: string };
  now?: () => Date;
}

export interface App {
  handler: RequestHandler;
  /** Starts background jobs. */
  start(): void;
  /** Stops background jobs and closes platform connections (the listener is its owner's). */
  stop(): Promise<void>;
}

// Spec 8: a request body is at most 64 KiB.
const MAX_BODY_BYTES = 64 * 1024;
// Reads are retried with backoff inside one call; writes never are (issue 3).
const STEAM_READ_RETRIES = 2;
// Spec 8 CORS: the operator's allowed origins are read again at most this often.
const ALLOWED_ORIGINS_CACHE_MS = 5_000;
// Background transfers look for work this often when idle; metering charges whole hours.
const TRANSFER_MOVER_INTERVAL_MS = 1_000;
const METERING_INTERVAL_MS = 60_000;

/** The one composition root: the only module that picks concrete adapters. */
export function createApp(options: AppOptions): App {
  const { config, database, logger, secrets } = options;
  const now = options.now ?? (() => new Date());
  const steam = createSteamClient({
    apiUrl: config.steam.apiUrl,
    storeUrl: config.steam.storeUrl,
    timeoutMs: config.steam.timeoutMs,
    readRetries: STEAM_READ_RETRIES,
    logger: logger.child({ component: "steam" }),
  });
  const deps: ServiceDeps = {
    db: database.prisma,
    refuse: createRefuse(config.errorDomain),
    now,
    steam,
    hosting: createEmbeddedHosting(database.prisma),
    masterKey: secrets.masterKey,
    config,
    logger,
  };

  // The payment provider is simulated here (DESIGN 2: platform/billing); nothing is charged.
  const payments = createSimulatedPaymentProvider({ db: database.prisma, now });
  const routes = (router: ConnectRouter) => {
    router.service(CampaignService, createCampaignService(deps));
    router.service(AccountService, createAccountService(deps));
    router.service(OperatorService, createOperatorService(deps));
    router.service(HostingService, createHostingService(deps));
    router.service(BillingService, createBillingService(deps, payments));
    router.service(Operations, createOperationsService(deps));
  };

  const verification = createVerificationJob({ deps, intervalMs: config.verificationIntervalMs });
  deps.wakeVerification = verification.wake;
  const jobs: Job[] = [
    createSettlementSweeper({ deps, ...config.settlement }),
    verification,
    createTransferMover({ deps, intervalMs: TRANSFER_MOVER_INTERVAL_MS }),
    createMeteringJob({ deps, intervalMs: METERING_INTERVAL_MS }),
    createSessionPurge({ deps }),
    createCheckoutExpiry({ deps }),
  ];
  const rateLimit = createRateLimit({ ...config.rateLimit, redisUrl: config.redisUrl, logger });

  const handler = createRequestHandler({
    routes,
    // First to last on the way in: log (and contain unexpected failures), rate limit public
    // calls before any work (spec 8), refuse text the store cannot hold, authenticate
    // management calls, then validate required fields.
    interceptors: [
      createRequestLogInterceptor(logger),
      rateLimit.interceptor,
      textFieldsInterceptor,
      createAuthenticateInterceptor({ db: database.prisma, operatorToken: secrets.operatorToken, now }),
      requiredFieldsInterceptor,
    ],
    maxBodyBytes: MAX_BODY_BYTES,
    beforeRestBody: rateLimit.admitBeforeBody,
    registry: operationTypes(),
    ready: async () => {
      await database.prisma.$queryRaw`SELECT 1`;
    },
    logger,
    cors: createCors({ allowedOrigins: () => readAllowedOrigins(database.prisma), cacheMs: ALLOWED_ORIGINS_CACHE_MS }),
    paymentWebhook: {
      secret: paymentWebhookSecret(config.paymentWebhookSecret, secrets.masterKey),
      db: database.prisma,
      now,
    },
  });

  return {
    handler,
    start() {
      for (const job of jobs) job.start();
    },
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
      await steam.close();
      await rateLimit.close();
    },
  };
}
