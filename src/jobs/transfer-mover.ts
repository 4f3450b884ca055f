import type { ServiceDeps } from "../core/deps.js";
import { claimTransfer } from "../store/transfer-progress.js";
import { TRANSFER_LEASE_MS, type TransferDeps, workTransfer } from "../usecases/transfer-steps.js";
import { createIntervalJob, type IntervalJob, type JobOptions } from "./interval-job.js";

export type TransferMoverOptions = JobOptions<TransferDeps & Pick<ServiceDeps, "fundingChanges" | "logger">>;

export type TransferMover = IntervalJob<number> & {
  /** Takes one transfer whose lease is free and moves up to `maxItems` of its items; returns how many. */
  runOnce(options?: { maxItems?: number }): Promise<number>;
};

// Items one turn moves before it lets the transfer go (another replica may take it).
const ITEMS_PER_TURN = 20;

/**
 * Moves MODE_MOVE transfers item by item in the background (spec 4.6), and finishes a convert
 * whose call died. All its state is in transfers and transfer_items: a restarted (or another)
 * replica resumes where the last one stopped, once its lease is released or has run out.
 */
export function createTransferMover(options: TransferMoverOptions): TransferMover {
  const { deps } = options;

  async function runOnce(turn: { maxItems?: number } = {}): Promise<number> {
    const lease = await claimTransfer(deps.db, { now: deps.now(), leaseMs: TRANSFER_LEASE_MS });
    if (!lease) return 0;
    const maxItems = turn.maxItems ?? ITEMS_PER_TURN;
    // After stop(), a turn in progress finishes the item in hand, settles and lets go.
    const moved = await workTransfer(deps, lease, { maxItems, stopping: job.stopping });
    // Moving credit and readying the campaign change what funding answers.
    if (moved > 0) await deps.fundingChanges?.announceAll();
    return moved;
  }

  const job = createIntervalJob({
    name: "transfer-mover",
    intervalMs: options.intervalMs,
    runOnce: () => runOnce(),
    logger: deps.logger.child({ job: "transfer-mover" }),
    // A turn that moved something leaves the transfer (or another) waiting: take it at once.
    runAgain: (handled) => handled > 0,
  });
  return { ...job, runOnce };
}
