import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Refuse } from "../errors/refusals.js";
import type { HostingPlatform } from "../platform/hosting/hosting-platform.js";
import type { SteamPlatform } from "../platform/steam/steam-platform.js";
import type { Db } from "../store/open-database.js";
import type { WebhookEvents } from "../usecases/webhooks/webhook-events.js";
import type { FundingChanges } from "./funding-changes.js";
import type { PageTokens } from "./page-token.js";
import type { PurchaseMetrics } from "./purchase-metrics.js";
import type { MasterKeys } from "./secret-box.js";

/** What every service's handlers are given by the composition root (src/app.ts). */
export interface ServiceDeps {
  db: Db;
  refuse: Refuse;
  now: () => Date;
  /** The platform (Steam's partner Web API, or the simulator in tests and demos). */
  steam: SteamPlatform;
  /** The host platform whose projects a transfer moves resources between. */
  hosting: HostingPlatform;
  /**
   * ENCORE_MASTER_KEY (seals publisher keys, signs page tokens, keys request fingerprints), and
   * during a rotation ENCORE_MASTER_KEY_PREVIOUS, which still opens and verifies (secret-box.ts).
   */
  masterKeys: MasterKeys;
  /** The one signer of list page tokens (AIP-158), keyed by `masterKeys`. */
  pageTokens: PageTokens;
  config: Readonly<Config>;
  logger: Logger;
  /** Asks this process's verification job to run now (a campaign was created or retried). */
  wakeVerification: () => void;
  // The composition root always sets the last three; fixtures that do not look at them leave them out.
  /** The webhook events changes write in their transactions. */
  webhookEvents?: WebhookEvents;
  /**
   * Told of every write that changed a campaign's public funding, here or (through PostgreSQL
   * notifications) on another replica; the public read cache listens.
   */
  fundingChanges?: FundingChanges;
  /** Purchases ended and credit issued, for /metrics. */
  metrics?: PurchaseMetrics;
}
