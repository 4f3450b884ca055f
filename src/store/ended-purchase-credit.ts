import type { Prisma } from "../../gen/prisma/client.js";
import { creditOnce } from "./purchase-credit.js";
import { type FindingOf, type ReconciledRow, recordFinding, recordReversal } from "./reconciliation.js";

/**
 * Credits, from the platform's report, a purchase the service ended FAILED or CANCELLED whose
 * order the platform settled after all: the player paid, so the project gets the
 * credit. The purchase keeps its state (the game's answer never changes, spec 3.1) and gains
 * its credit time; the credit moves as any credit does (creditOnce: not in sandbox; its
 * reservation was released when it ended); `reversal` reverses a partial refund's share; and the
 * finding says why. All in the caller's transaction (the report page's, with the cursor). Only
 * while the purchase carries no credit time: false when it was credited already, and nothing is
 * written.
 */
export async function creditEndedPurchase(
  tx: Prisma.TransactionClient,
  options: {
    purchase: ReconciledRow;
    linkId: string;
    reversal: { kind: "PARTIAL_REFUND"; totalNanos: bigint; platformTime: Date } | undefined;
    finding: FindingOf;
    now: Date;
  },
): Promise<boolean> {
  const { purchase, linkId, reversal, now } = options;
  const purchaseId = purchase.id;
  if ((await creditOnce(tx, { purchaseId, of: "ended", now })) === undefined) return false;
  if (reversal) {
    const { kind, totalNanos, platformTime } = reversal;
    await recordReversal(tx, { purchase, linkId, kind, totalNanos, deltaNanos: totalNanos, platformTime, now });
  }
  await recordFinding(tx, { ...options.finding, purchaseId, linkId, now });
  return true;
}
