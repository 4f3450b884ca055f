import type { ServiceDeps } from "../core/deps.js";
import { NONCE_MAX_AGE_MS } from "../domain/openid-assertion.js";
import { purgeWebSessions } from "../store/web-sessions.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";

export interface WebSessionPurgeOptions {
  deps: Pick<ServiceDeps, "db" | "now" | "logger">;
  intervalMs?: number;
}

export type WebSessionPurge = Job & { runOnce(): Promise<number> };

const DEFAULT_INTERVAL_MS = 15 * 60_000;
// A nonce is refused as stale once older than NONCE_MAX_AGE_MS, so it is kept a while past that
// (for the provider's clock running ahead of ours) and no longer.
const NONCE_KEEP_MS = 2 * NONCE_MAX_AGE_MS;

/**
 * Deletes the funding page's expired browser sessions (and with them the Steam ids they held)
 * and the OpenID nonces no return could be accepted with any more. Idempotent: replicas may run
 * it at the same time, without a lease.
 */
export function createWebSessionPurge(options: WebSessionPurgeOptions): WebSessionPurge {
  const { deps } = options;
  const runOnce = () => {
    const now = deps.now();
    return purgeWebSessions(deps.db, now, new Date(now.getTime() - NONCE_KEEP_MS));
  };
  const job = createIntervalJob({
    name: "web-session-purge",
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
    runOnce,
    logger: deps.logger.child({ job: "web-session-purge" }),
  });
  return { name: job.name, start: job.start, stop: job.stop, runOnce };
}
