import { holdLease } from "../store/leases.js";
import { leaseDuePurchases } from "../store/purchase-leases.js";
import { findPurchase } from "../store/purchases.js";
import { type SettleDeps, settlePurchase } from "../usecases/settle-purchase.js";
import { createIntervalJob, type IntervalJob, type JobOptions } from "./interval-job.js";

export interface SettlementSweeperOptions extends JobOptions<SettleDeps> {
  /** A purchase begun this long ago and not final is settled by the sweeper; also the recheck period. */
  settleAfterMs: number;
  /** A purchase still unapproved this long after it began is cancelled (a web one: abandoned, approved or not). */
  cancelAfterMs: number;
}

export interface SweepReport {
  looked: number;
  settled: number;
  unavailable: number;
  /** Purchases whose lease ran out before their turn (another replica may have them). */
  lost: number;
}

export type SettlementSweeper = IntervalJob<SweepReport>;

// Purchases one sweep takes at most.
const BATCH = 100;

/**
 * Settles what no game completed (spec 3.1: "within a couple of minutes even if the game never
 * calls complete"): approved orders are finalised and credited, orders left unapproved are
 * cancelled, and an order captured before a crash but never credited is credited once. A web
 * order is never finalised here: its player's return does that, and one nobody came back for is
 * abandoned once unapproved orders would be cancelled (docs/settlement.md "Abandoned web
 * orders"). It runs the very settlement complete runs; several replicas share the work through
 * row leases.
 */
export function createSettlementSweeper(options: SettlementSweeperOptions): SettlementSweeper {
  const { deps } = options;
  const log = deps.logger.child({ job: "settlement-sweeper" });

  async function runOnce(): Promise<SweepReport> {
    const now = deps.now();
    const leaseUntil = new Date(now.getTime() + options.settleAfterMs);
    const ids = await leaseDuePurchases(deps.db, {
      now,
      dueBefore: new Date(now.getTime() - options.settleAfterMs),
      leaseUntil,
      limit: BATCH,
    });
    const report: SweepReport = { looked: ids.length, settled: 0, unavailable: 0, lost: 0 };
    const cancelUnapprovedBefore = new Date(now.getTime() - options.cancelAfterMs);
    for (const id of ids) {
      // The batch's lease may have run out while earlier purchases waited on the platform.
      const lease = holdLease(deps.db, "sweep", {
        id,
        heldUntil: leaseUntil,
        now: deps.now,
        leaseMs: options.settleAfterMs,
      });
      if (!(await lease.renew())) {
        report.lost += 1;
        continue;
      }
      const settled = await sweepOne(id, cancelUnapprovedBefore);
      if (settled) report.settled += 1;
      else report.unavailable += 1;
    }
    return report;
  }

  // One purchase's failure never holds up the others; its lease brings it back later.
  async function sweepOne(id: string, cancelUnapprovedBefore: Date): Promise<boolean> {
    try {
      const purchase = await findPurchase(deps.db, id);
      if (!purchase) return true;
      const result = await settlePurchase(deps, purchase, { cancelUnapprovedBefore });
      if (result.kind === "settled") return true;
      log.warn({ purchaseId: id, cause: result.cause }, "purchase not settled: the platform did not answer");
    } catch (error) {
      log.error({ err: error, purchaseId: id }, "purchase not settled");
    }
    return false;
  }

  return createIntervalJob({ name: "settlement-sweeper", intervalMs: options.intervalMs, runOnce, logger: log });
}
