import type { ServiceDeps } from "../core/deps.js";
import { deleteExpiredSessions } from "../store/sessions.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";

export interface SessionPurgeOptions {
  deps: Pick<ServiceDeps, "db" | "now" | "logger">;
  /** Time between runs; an expired session already fails to authenticate, so this only bounds storage. */
  intervalMs?: number;
}

export type SessionPurge = Job & { runOnce(): Promise<number> };

const DEFAULT_INTERVAL_MS = 15 * 60_000;

/**
 * Deletes expired sessions so they never accumulate (sessions live at most 12 hours,
 * operator/create-session.ts). The delete is idempotent: replicas running it at once each
 * delete what is left, and none needs a lease.
 */
export function createSessionPurge(options: SessionPurgeOptions): SessionPurge {
  const { deps } = options;
  const runOnce = () => deleteExpiredSessions(deps.db, deps.now());
  const job = createIntervalJob({
    name: "session-purge",
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
    runOnce,
    logger: deps.logger.child({ job: "session-purge" }),
  });
  return { name: job.name, start: job.start, stop: job.stop, runOnce };
}
