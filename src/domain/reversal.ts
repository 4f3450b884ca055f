import { isFinal, type OrderStatus, type PurchaseState } from "./purchase-state.js";

// Refunds and chargebacks reconciled from the platform's report, pure: which order
// statuses take credit back, how much, and what one report row means for one purchase.

// Reference 3.2: every status after `Succeeded` that says "revoke".
const KINDS = {
  Refunded: "REFUNDED",
  PartialRefund: "PARTIAL_REFUND",
  Chargedback: "CHARGEDBACK",
  RefundedSuspectedFraud: "REFUNDED_SUSPECTED_FRAUD",
  RefundedFriendlyFraud: "REFUNDED_FRIENDLY_FRAUD",
} as const;

export type ReversalKind = (typeof KINDS)[keyof typeof KINDS];

/** The reversal an order status stands for; undefined for statuses that take nothing back. */
export function reversalKindOf(status: string): ReversalKind | undefined {
  return (KINDS as Partial<Record<string, ReversalKind>>)[status];
}

export interface ReportLine {
  /** Hundredths of the order's currency, without VAT. */
  amountCents: bigint;
  vatCents: bigint;
  itemStatus: string;
}

export interface ReportRow {
  status: OrderStatus;
  items: readonly ReportLine[];
}

/**
 * The credit a reversed order takes back, in nano-USD. A full reversal takes the whole credit.
 * A partial refund (reference 3.2: "revoke refunded lines") takes the credit in proportion to
 * what the player paid for the refunded lines (amount + VAT) over the whole order, in integer
 * arithmetic, rounded down to the nano-dollar: a fraction of a nano is never taken back, so a
 * reversal never exceeds the refunded share. A line counts as refunded when its own status is
 * a reversing one.
 */
export function reversedCredit(creditNanos: bigint, row: ReportRow): bigint {
  const kind = reversalKindOf(row.status);
  if (kind === undefined) return 0n;
  if (kind !== "PARTIAL_REFUND") return creditNanos;
  let total = 0n;
  let refunded = 0n;
  for (const line of row.items) {
    const paid = line.amountCents + line.vatCents;
    total += paid;
    if (reversalKindOf(line.itemStatus) !== undefined) refunded += paid;
  }
  if (total <= 0n || refunded <= 0n) return 0n;
  if (refunded >= total) return creditNanos;
  return (creditNanos * refunded) / total;
}

export interface ReconciledPurchase {
  state: PurchaseState;
  /**
   * Whether its credit was added (it carries a credit time): every CREDITED purchase, and one
   * the service ended FAILED or CANCELLED that a reconciliation credited from the report.
   */
  credited: boolean;
  creditNanos: bigint;
  /** Sandbox purchases credited nothing (spec 1.6), so a reversal takes nothing back. */
  sandbox: boolean;
  /** Its reversal so far, if any. */
  reversal: { kind: ReversalKind; reversedNanos: bigint } | undefined;
}

/** What reconciling one purchase against its report row comes to. */
export type ReconcileStep =
  /** Record (or raise) the reversal to `totalNanos`, taking `deltaNanos` more back. */
  | { action: "reverse"; kind: ReversalKind; totalNanos: bigint; deltaNanos: bigint }
  /** The report shows the order settled and we never credited it: settle it as complete does. */
  | { action: "settle" }
  /**
   * The platform settled an order this service had ended without credit (FAILED, CANCELLED): the
   * player paid, so its credit is added now and the state kept; with `reversal`, the share a
   * partial refund took back is reversed with it.
   */
  | { action: "creditEnded"; reversal: { kind: "PARTIAL_REFUND"; totalNanos: bigint } | undefined; why: string }
  /** The platform settled an order this service ended without credit and took all of it back. */
  | { action: "nothingOwed"; why: string }
  | { action: "none" };

const SETTLED_OR_REVERSED = (status: OrderStatus) => status === "Succeeded" || reversalKindOf(status) !== undefined;

/**
 * The reconciliation rule: the ledger ends equal to the platform's report.
 * - An open purchase (INITIATED, AUTHORIZED) whose order the report shows settled (or settled
 *   and reversed) is settled through the one settlement use case: QueryTxn decides, credit
 *   happens once; an order already reversed in full is never credited (it becomes FAILED).
 * - A credited purchase whose order was reversed gains its reversal once; a report row seen
 *   again finds the same total and records nothing; a larger total (a partial refund become a
 *   full one) takes only the difference.
 * - A purchase the service ended without credit (FAILED, CANCELLED) whose order the platform
 *   settled anyway was paid for: its credit is added (less a partial refund's share), once,
 *   and its state kept, since the game's answer never changes (spec 3.1: final states are
 *   final, complete is idempotent). Settled and taken back in full, nothing is owed.
 */
export function reconcileStep(purchase: ReconciledPurchase, row: ReportRow): ReconcileStep {
  if (!isFinal(purchase.state)) return SETTLED_OR_REVERSED(row.status) ? { action: "settle" } : { action: "none" };
  if (purchase.state === "CREDITED" || purchase.credited) return reverseCredited(purchase, row);
  return creditEnded(purchase, row);
}

function reverseCredited(purchase: ReconciledPurchase, row: ReportRow): ReconcileStep {
  const kind = reversalKindOf(row.status);
  const owed = reversedCredit(purchase.creditNanos, row);
  if (kind === undefined || owed === 0n) return { action: "none" };
  const before = purchase.reversal;
  // A sandbox reversal is recorded once, taking nothing back.
  if (purchase.sandbox)
    return before ? { action: "none" } : { action: "reverse", kind, totalNanos: 0n, deltaNanos: 0n };
  if (owed <= (before?.reversedNanos ?? 0n)) return { action: "none" };
  return { action: "reverse", kind, totalNanos: owed, deltaNanos: owed - (before?.reversedNanos ?? 0n) };
}

function creditEnded(purchase: ReconciledPurchase, row: ReportRow): ReconcileStep {
  if (!SETTLED_OR_REVERSED(row.status)) return { action: "none" };
  const ended = `the platform settled an order this service had ended ${purchase.state}`;
  const kept = `the purchase stays ${purchase.state} (the game's answer never changes)`;
  const owed = reversedCredit(purchase.creditNanos, row);
  if (owed >= purchase.creditNanos)
    return { action: "nothingOwed", why: `${ended} and took all of it back (${row.status}): nothing is owed` };
  if (owed === 0n)
    return { action: "creditEnded", reversal: undefined, why: `${ended}: the player paid, credited now; ${kept}` };
  // A sandbox reversal is recorded, taking nothing back (its credit moved no money either).
  return {
    action: "creditEnded",
    reversal: { kind: "PARTIAL_REFUND", totalNanos: purchase.sandbox ? 0n : owed },
    why: `${ended} and refunded part of it: credited now, the refunded share reversed; ${kept}`,
  };
}
