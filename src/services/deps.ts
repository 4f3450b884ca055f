import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Refuse } from "../errors/refusals.js";
import type { HostingPlatform } from "../platform/hosting/hosting-platform.js";
import type { SteamPlatform } from "../platform/steam/steam-platform.js";
import type { Db } from "../store/open-database.js";

/** What every service's handlers are given by the composition root (src/app.ts). */
export interface ServiceDeps {
  db: Db;
  refuse: Refuse;
  now: () => Date;
  /** The platform (Steam's partner Web API, or the simulator in tests and demos). */
  steam: SteamPlatform;
  /**
   * The host platform whose projects a transfer moves resources between. The composition root
   * always sets it; only the transfer methods need it, so fixtures of other services may leave
   * it out.
   */
  hosting?: HostingPlatform;
  /** 32 bytes; encrypts publisher keys at rest (AES-256-GCM). */
  masterKey: Buffer;
  config: Readonly<Config>;
  logger: Logger;
  /** Asks this process's verification job to run now (a campaign was created or retried). */
  wakeVerification?: () => void;
}
