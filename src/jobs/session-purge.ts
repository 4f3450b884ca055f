import type { ServiceDeps } from "../services/deps.js";
import { deleteExpiredSessions } from "../store/sessions.js";
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
  const log = deps.logger.child({ job: "session-purge" });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  const runOnce = () => deleteExpiredSessions(deps.db, deps.now());

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((error: unknown) => log.error({ err: error }, "session purge failed"))
        .finally(schedule);
    }, options.intervalMs ?? DEFAULT_INTERVAL_MS);
  }

  return {
    name: "session-purge",
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
