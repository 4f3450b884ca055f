import type { ServiceDeps } from "../core/deps.js";
import type { Db } from "../store/open-database.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";

export interface RetentionPurgeOptions {
  deps: Pick<ServiceDeps, "db" | "now" | "logger">;
  /** Rows older than this many days are deleted (the store's `purge` says which may go). */
  retentionDays: number;
  /** Time between runs; retention is counted in days, so an hour late is nothing. */
  intervalMs?: number;
  /** Rows deleted per run at most; a full batch runs again at once. */
  batch?: number;
}

export type RetentionPurge = Job & { runOnce(): Promise<number>; wake(): void };

const DEFAULT_INTERVAL_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * A job deleting what has outlived its retention, a batch at a time, hourly. Needs no lease:
 * `purge` must be safe with replicas running it at once (each deletes what is left).
 */
export function createRetentionPurge(
  kind: {
    name: string;
    /** What one run deleted, for the log line: "audit events", "webhook events". */
    rows: string;
    defaultBatch: number;
    purge: (db: Db, options: { cutoff: Date; limit: number }) => Promise<number>;
  },
  options: RetentionPurgeOptions,
): RetentionPurge {
  const { deps, retentionDays } = options;
  const batch = options.batch ?? kind.defaultBatch;
  const logger = deps.logger.child({ job: kind.name });
  const runOnce = async () => {
    const cutoff = new Date(deps.now().getTime() - retentionDays * DAY_MS);
    const deleted = await kind.purge(deps.db, { cutoff, limit: batch });
    if (deleted > 0) logger.info({ deleted, before: cutoff.toISOString() }, `${kind.rows} past retention deleted`);
    return deleted;
  };
  const job = createIntervalJob({
    name: kind.name,
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
    runOnce,
    logger,
    runAgain: (deleted) => deleted >= batch,
  });
  return { name: job.name, start: job.start, stop: job.stop, wake: job.wake, runOnce };
}
