// The purchase state machine of spec 3.1, pure: which platform order status means what, and
// which moves between our states are allowed. Final states never change.

export type PurchaseState = "INITIATED" | "AUTHORIZED" | "CREDITED" | "CANCELLED" | "FAILED";

/** The platform's order statuses (reference 3.2), spelled as the platform spells them. */
export type OrderStatus =
  | "Init"
  | "Approved"
  | "Succeeded"
  | "Failed"
  | "Refunded"
  | "PartialRefund"
  | "Chargedback"
  | "RefundedSuspectedFraud"
  | "RefundedFriendlyFraud";

const FINAL: ReadonlySet<PurchaseState> = new Set(["CREDITED", "CANCELLED", "FAILED"]);

export function isFinal(state: PurchaseState): boolean {
  return FINAL.has(state);
}

/**
 * Allowed moves (spec 3.1): INITIATED -> AUTHORIZED (platform approved, not settled), any
 * non-final -> CREDITED / CANCELLED / FAILED. Nothing leaves a final state, and nothing goes back
 * from AUTHORIZED to INITIATED. Staying put is not a move.
 */
export function canMove(from: PurchaseState, to: PurchaseState): boolean {
  if (isFinal(from) || from === to) return false;
  if (to === "INITIATED") return false;
  return true;
}

/** What to do about an order, given what the platform says of it. */
export type SettlementStep =
  /** Not approved yet: stay INITIATED (the sweeper cancels it once it is old enough). */
  | "wait"
  /** Approved, not captured: FinalizeTxn, then credit; AUTHORIZED meanwhile. */
  | "finalize"
  /** Captured: credit now (also heals a crash between FinalizeTxn and the credit). */
  | "credit"
  /** Declined, and the game said so: CANCELLED. */
  | "cancel"
  /** The platform did not complete the order: FAILED, nothing credited. */
  | "fail";

/**
 * Maps the platform's order status to the next step. `authorized` is the game's hint from the
 * platform's callback (spec 4.4), undefined for the sweeper: it never decides whether the player
 * paid, only whether a `Failed` order reads as the player's decline (CANCELLED) or as an order the
 * platform did not complete (FAILED). An order refunded or charged back before we credited it
 * was never ours to credit: FAILED.
 */
export function settlementStep(status: OrderStatus, authorized: boolean | undefined): SettlementStep {
  switch (status) {
    case "Init":
      return "wait";
    case "Approved":
      return "finalize";
    case "Succeeded":
      return "credit";
    case "Failed":
      return authorized === false ? "cancel" : "fail";
    default:
      return "fail";
  }
}

/** The state a step leads to. */
export function stateAfter(step: SettlementStep): PurchaseState {
  const states: Record<SettlementStep, PurchaseState> = {
    wait: "INITIATED",
    finalize: "AUTHORIZED",
    credit: "CREDITED",
    cancel: "CANCELLED",
    fail: "FAILED",
  };
  return states[step];
}

/**
 * What a begin repeated with a known requestId is answered (spec 3.1 last row): the same
 * purchase while it can still be paid or has been; ORDER_REFUSED once it ended without payment,
 * so the game never waits for an overlay that is not coming.
 */
export function repeatedBeginAnswer(state: PurchaseState): "same-purchase" | "order-refused" {
  return state === "CANCELLED" || state === "FAILED" ? "order-refused" : "same-purchase";
}
