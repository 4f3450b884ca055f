import type { TransferItemState } from "../../gen/prisma/enums.js";
import type { ServiceDeps } from "../core/deps.js";
import type { MoveOutcome } from "../platform/hosting/hosting-platform.js";
import {
  type Lease,
  markItem,
  nextPendingItem,
  releaseLease,
  renewLease,
  settleTransfer,
} from "../store/transfer-progress.js";
import { findTransferTarget, type TransferTarget } from "../store/transfers.js";

// Working a transfer under its lease, item by item (spec 4.6): run by StartTransfer for
// MODE_CONVERT within the call, and by the mover job for MODE_MOVE (or for a convert whose
// call died). Every step is safe to repeat: the host's move is idempotent and every item moves
// forward by a conditional write, so a restart between two steps loses nothing.

export const TRANSFER_LEASE_MS = 60_000;

const outcomes: Record<MoveOutcome, { state: TransferItemState; detail: string }> = {
  moved: { state: "MOVED", detail: "" },
  missing: { state: "FAILED", detail: "no longer in the source project" },
  unmovable: { state: "FAILED", detail: "cannot be moved" },
  needsAcknowledgement: {
    state: "AWAITING_ACKNOWLEDGEMENT",
    detail: "a stopped server whose disk cannot be copied: AcknowledgeTransferItem moves it as a fresh install",
  },
};

/** Moves the next pending item; false when none is left. */
async function moveNextItem(deps: ServiceDeps, target: TransferTarget): Promise<boolean> {
  const resourceId = await nextPendingItem(deps.db, target.id);
  if (resourceId === undefined) return false;
  const outcome = await deps.hosting.moveResource({
    resourceId,
    fromProjectId: target.sourceProjectId,
    toProjectId: target.targetProjectId,
    copy: target.mode === "MOVE",
    freshInstall: false,
    at: deps.now(),
  });
  const { state, detail } = outcomes[outcome];
  await markItem(deps.db, { transferId: target.id, resourceId, from: ["PENDING"], to: state, detail });
  return true;
}

export interface WorkOptions {
  /** At most this many items in this turn; the rest wait for the next. */
  maxItems: number;
  /** Asked between items: a stopping job finishes the item in hand and lets go. */
  stopping?: () => boolean;
}

/**
 * Moves items while the lease holds, then settles the transfer (SUCCEEDED makes the campaign
 * ready) and lets the lease go. Returns how many items were handled.
 */
export async function workTransfer(deps: ServiceDeps, lease: Lease, options: WorkOptions): Promise<number> {
  const target = await findTransferTarget(deps.db, lease.transferId);
  if (!target) return 0;
  let held: Lease | undefined = lease;
  let handled = 0;
  while (held && handled < options.maxItems && !options.stopping?.()) {
    if (!(await moveNextItem(deps, target))) break;
    handled += 1;
    held = await renewLease(deps.db, held, { now: deps.now(), leaseMs: TRANSFER_LEASE_MS });
  }
  // A lost lease means another worker has the transfer now; it settles it.
  if (!held) return handled;
  const now = deps.now();
  await settleTransfer(deps.db, {
    transferId: target.id,
    now,
    inTransaction: (tx) => deps.webhookEvents?.transferState(tx, target.id, now) ?? Promise.resolve(),
  });
  await releaseLease(deps.db, held);
  return handled;
}
