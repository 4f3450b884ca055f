// The purchase state machine of spec 3.1, pure: which platform order status means what, and
// which moves between our states are allowed. Final states never change. The store's
// conditional updates take their guards from MOVES_INTO and OPEN_STATES (store/purchase-guards.ts),
// so this table is what the running code obeys.

export type PurchaseState = "INITIATED" | "AUTHORIZED" | "CREDITED" | "CANCELLED" | "FAILED";

/** The platform's order statuses (reference 3.2), spelled as the platform spells them. */
export const ORDER_STATUSES = [
  "Init",
  "Approved",
  "Succeeded",
  "Failed",
  "Refunded",
  "PartialRefund",
  "Chargedback",
  "RefundedSuspectedFraud",
  "RefundedFriendlyFraud",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Allowed moves (spec 3.1), by the state moved into: the states a purchase may be in for the
 * move. INITIATED -> AUTHORIZED (platform approved, not settled), any non-final -> CREDITED /
 * CANCELLED / FAILED. Nothing leaves a final state, nothing goes back to INITIATED, and staying
 * put is not a move.
 */
export const MOVES_INTO: Readonly<Record<PurchaseState, readonly PurchaseState[]>> = {
  INITIATED: [],
  AUTHORIZED: ["INITIATED"],
  CREDITED: ["INITIATED", "AUTHORIZED"],
  CANCELLED: ["INITIATED", "AUTHORIZED"],
  FAILED: ["INITIATED", "AUTHORIZED"],
};

/** The states a purchase can still leave: the ones not final. */
export const OPEN_STATES: readonly PurchaseState[] = (Object.keys(MOVES_INTO) as PurchaseState[]).filter((state) =>
  Object.values(MOVES_INTO).some((from) => from.includes(state)),
);

export function isFinal(state: PurchaseState): boolean {
  return !OPEN_STATES.includes(state);
}

export function canMove(from: PurchaseState, to: PurchaseState): boolean {
  return MOVES_INTO[to].includes(from);
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
 * platform did not complete (FAILED). An order refunded in full or charged back before we
 * credited it was never ours to credit: FAILED; one partly refunded was paid for in part: credit.
 */
export function settlementStep(status: OrderStatus, authorized: boolean | undefined): SettlementStep {
  switch (status) {
    case "Init":
      return "wait";
    case "Approved":
      return "finalize";
    // PartialRefund: the platform settled the order and refunded some of its lines; the player
    // paid for the rest, so it is credited (its refunded share reversed with it).
    case "Succeeded":
    case "PartialRefund":
      return "credit";
    case "Failed":
      return authorized === false ? "cancel" : "fail";
    default:
      return "fail";
  }
}

const STATE_AFTER = {
  wait: "INITIATED",
  finalize: "AUTHORIZED",
  credit: "CREDITED",
  cancel: "CANCELLED",
  fail: "FAILED",
} as const satisfies Record<SettlementStep, PurchaseState>;

/** The state a step leads to. */
export function stateAfter<S extends SettlementStep>(step: S): (typeof STATE_AFTER)[S] {
  return STATE_AFTER[step];
}

/**
 * What a begin repeated with a known requestId is answered (spec 3.1 last row): the same
 * purchase while it can still be paid or has been; ORDER_REFUSED once it ended without payment,
 * so the game never waits for an overlay that is not coming.
 */
export function repeatedBeginAnswer(state: PurchaseState): "same-purchase" | "order-refused" {
  return state === "CANCELLED" || state === "FAILED" ? "order-refused" : "same-purchase";
}
