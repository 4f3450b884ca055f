import type { ServiceDeps } from "../core/deps.js";
import { leaseDueLinks, releaseLinkLease, renewLinkLease } from "../store/reconciliation-leases.js";
import {
  RECONCILIATION_LEASE_MS,
  REPORT_PAGE_SIZE,
  type ReconcileReport,
  reconcileLink,
} from "../usecases/reconciliation/reconcile-link.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";

export interface ReconciliationJobOptions {
  deps: ServiceDeps;
  /** Time between passes (RECONCILIATION_INTERVAL_MS); the first comes one interval after start. */
  intervalMs: number;
  /** How long one replica holds a link between pages; a crashed replica's links come back after it. */
  leaseMs?: number;
  /** Links leased at a time. */
  batchSize?: number;
  /** Report page size (reference 3.9 recommends 1000..10000). */
  pageSize?: number;
}

export type ReconciliationJob = Job & {
  /** One pass over every link due; what each came to. */
  runOnce(): Promise<Array<{ linkId: string; report: ReconcileReport }>>;
};

const DEFAULT_BATCH = 20;

/**
 * Refunds and chargebacks reconciled from the platform's report, per distributor
 * link, every `intervalMs`. Links are leased with FOR UPDATE SKIP LOCKED and the lease renewed
 * before every page, so several replicas share the links and never work one at once; the
 * cursor's conditional advance keeps even an overtaken replica from applying a page twice.
 */
export function createReconciliationJob(options: ReconciliationJobOptions): ReconciliationJob {
  const { deps } = options;
  const log = deps.logger.child({ job: "reconciliation" });
  const leaseMs = options.leaseMs ?? RECONCILIATION_LEASE_MS;
  const limit = options.batchSize ?? DEFAULT_BATCH;

  async function runOnce() {
    const now = deps.now();
    const tasks = await leaseDueLinks(deps.db, {
      now,
      // Half an interval: a link reconciled on the operator's demand mid-interval waits for the
      // next pass; every other link is reconciled once per pass.
      dueBefore: new Date(now.getTime() - options.intervalMs / 2),
      leaseUntil: new Date(now.getTime() + leaseMs),
      limit,
    });
    const results: Array<{ linkId: string; report: ReconcileReport }> = [];
    for (const task of tasks) {
      let heldUntil = task.leaseUntil;
      const keepGoing = async () => {
        if (job.stopping()) return false;
        const at = deps.now();
        const until = new Date(at.getTime() + leaseMs);
        if (!(await renewLinkLease(deps.db, { linkId: task.linkId, heldUntil, now: at, leaseUntil: until })))
          return false;
        heldUntil = until;
        return true;
      };
      try {
        const report = await reconcileLink(deps, task, { pageSize: options.pageSize ?? REPORT_PAGE_SIZE, keepGoing });
        results.push({ linkId: task.linkId, report });
        log.info({ linkId: task.linkId, ...report, reversedNanos: String(report.reversedNanos) }, "link reconciled");
        await releaseLinkLease(deps.db, { linkId: task.linkId, heldUntil, now: deps.now(), drained: report.drained });
      } catch (error) {
        // Its lease brings it back once it runs out; the other links go on.
        log.error({ err: error, linkId: task.linkId }, "link reconciliation failed");
      }
    }
    return results;
  }

  const job = createIntervalJob({
    name: "reconciliation",
    intervalMs: options.intervalMs,
    runOnce,
    logger: log,
    runAgain: (results) => results.length === limit,
  });
  return { name: job.name, start: job.start, stop: job.stop, runOnce };
}
