import type { ConnectRouter } from "@connectrpc/connect";
import type { Logger } from "pino";
import { CampaignService } from "../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Config } from "./config.js";
import { createRefuse } from "./errors/refusals.js";
import { createRequestLogInterceptor } from "./server/interceptors/request-log.js";
import { requiredFieldsInterceptor } from "./server/interceptors/required-fields.js";
import { createRequestHandler } from "./server/create-request-handler.js";
import type { RequestHandler } from "./server/listener.js";
import { createCampaignService } from "./services/campaign/campaign-service.js";
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
  /** Stops background jobs (the listener is closed by its owner). */
  stop(): Promise<void>;
}

// Spec 8: a request body is at most 64 KiB.
const MAX_BODY_BYTES = 64 * 1024;

/** The one composition root: the only module that picks concrete adapters. */
export function createApp(options: AppOptions): App {
  const { config, database, logger } = options;
  const now = options.now ?? (() => new Date());
  const refuse = createRefuse(config.errorDomain);

  const routes = (router: ConnectRouter) => {
    router.service(CampaignService, createCampaignService({ db: database.prisma, refuse, now }));
  };

  const handler = createRequestHandler({
    routes,
    // First to last on the way in: log (and contain unexpected failures), then validate.
    interceptors: [createRequestLogInterceptor(logger), requiredFieldsInterceptor],
    maxBodyBytes: MAX_BODY_BYTES,
    ready: async () => {
      await database.prisma.$queryRaw`SELECT 1`;
    },
    logger,
  });

  return {
    handler,
    start() {},
    async stop() {},
  };
}
