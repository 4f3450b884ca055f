import type { ConnectRouter } from "@connectrpc/connect";
import type { Logger } from "pino";
import { CampaignService } from "../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Config } from "./config.js";
import { createRefuse } from "./errors/refusals.js";
import type { Job } from "./jobs/job.js";
import { createSteamClient } from "./platform/steam/create-steam-client.js";
import { createAuthenticateInterceptor } from "./server/interceptors/authenticate.js";
import { createRequestLogInterceptor } from "./server/interceptors/request-log.js";
import { requiredFieldsInterceptor } from "./server/interceptors/required-fields.js";
import { createRequestHandler } from "./server/create-request-handler.js";
import type { RequestHandler } from "./server/listener.js";
import { createCampaignService } from "./services/campaign/campaign-service.js";
import type { ServiceDeps } from "./services/deps.js";
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
    masterKey: secrets.masterKey,
    config,
    logger,
  };

  const routes = (router: ConnectRouter) => {
    router.service(CampaignService, createCampaignService(deps));
  };

  const jobs: Job[] = [];

  const handler = createRequestHandler({
    routes,
    // First to last on the way in: log (and contain unexpected failures), authenticate
    // management calls, then validate.
    interceptors: [
      createRequestLogInterceptor(logger),
      createAuthenticateInterceptor({ db: database.prisma, operatorToken: secrets.operatorToken, now }),
      requiredFieldsInterceptor,
    ],
    maxBodyBytes: MAX_BODY_BYTES,
    ready: async () => {
      await database.prisma.$queryRaw`SELECT 1`;
    },
    logger,
  });

  return {
    handler,
    start() {
      for (const job of jobs) job.start();
    },
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
      await steam.close();
    },
  };
}
