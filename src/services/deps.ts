import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Refuse } from "../errors/refusals.js";
import type { SteamPlatform } from "../platform/steam/steam-platform.js";
import type { Db } from "../store/open-database.js";

/** What every service's handlers are given by the composition root (src/app.ts). */
export interface ServiceDeps {
  db: Db;
  refuse: Refuse;
  now: () => Date;
  /** The platform (Steam's partner Web API, or the simulator in tests and demos). */
  steam: SteamPlatform;
  /** 32 bytes; encrypts publisher keys at rest (AES-256-GCM). */
  masterKey: Buffer;
  config: Readonly<Config>;
  logger: Logger;
}
