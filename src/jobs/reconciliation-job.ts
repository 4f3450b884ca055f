import { holdLinkLease, leaseDueLinks } from "../store/reconciliation-leases.js";
import {
  RECONCILIATION_LEASE_MS,
  REPORT_PAGE_SIZE,
  type ReconcileDeps,
  type ReconcileReport,
  reconcileLink,
} from "../usecases/reconciliation/reconcile-link.js";
import { createIntervalJob, type IntervalJob, type JobOptions } from "./interval-job.js";

/** intervalMs: RECONCILIATION_INTERVAL_MS; the first pass comes one interval after start. */
export interface ReconciliationJobOptions extends JobOptions<ReconcileDeps> {
  /** Report page size (reference 3.9 recommends 1000..10000). */
  pageSize?: number;
}

/** runOnce(): one pass over every link due, what each came to. */
export type ReconciliationJob = IntervalJob<Array<{ linkId: string; report: ReconcileReport }>>;

// Links one pass leases at a time.
const BATCH = 20;

/**
 * Refunds and chargebacks reconciled from the platform's report, per distributor
 * link, every `intervalMs`. Links are leased with FOR UPDATE SKIP LOCKED and the lease renewed
 * before every page, so several replicas share the links and never work one at once; the
 * cursor's conditional advance keeps even an overtaken replica from applying a page twice.
 */
export function createReconciliationJob(options: ReconciliationJobOptions): ReconciliationJob {
  const { deps } = options;
  const log = deps.logger.child({ job: "reconciliation" });
  const leaseMs = RECONCILIATION_LEASE_MS;

  async function runOnce() {
    const now = deps.now();
    const tasks = await leaseDueLinks(deps.db, {
      now,
      // Half an interval: a link reconciled on the operator's demand mid-interval waits for the
      // next pass; every other link is reconciled once per pass.
      dueBefore: new Date(now.getTime() - options.intervalMs / 2),
      leaseUntil: new Date(now.getTime() + leaseMs),
      limit: BATCH,
    });
    const results: Array<{ linkId: string; report: ReconcileReport }> = [];
    for (const task of tasks) {
      const lease = holdLinkLease(deps.db, task, { now: deps.now, leaseMs });
      const keepGoing = async () => !job.stopping() && (await lease.renew());
      try {
        const report = await reconcileLink(deps, task, { pageSize: options.pageSize ?? REPORT_PAGE_SIZE, keepGoing });
        results.push({ linkId: task.linkId, report });
        log.info({ linkId: task.linkId, ...report, reversedNanos: String(report.reversedNanos) }, "link reconciled");
        await lease.release(report.drained);
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
    runAgain: (results) => results.length === BATCH,
  });
  return job;
}
