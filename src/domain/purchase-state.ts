// The purchase state machine of spec 3.1, pure: which platform order status means what, and
// which moves between our states are allowed. Final states never change. Every SQL guard on a
// purchase's state is built from the tables here (store/purchase-guards.ts), so they are what the
// running code obeys.

export type PurchaseState = "INITIATED" | "AUTHORIZED" | "CREDITED" | "CANCELLED" | "FAILED" | "ABANDONED";

/**
 * Where a purchase was made: in the game (BeginPurchase, approved in the overlay) or on the
 * campaign's public page (approved on the platform's site, reference 3.1 "Web flow").
 */
export type PurchaseChannel = "GAME" | "WEB";

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
 * move. ABANDONED: a web order whose player never came back, so never finalized (docs/settlement.md
 * "Abandoned web orders"). Nothing leaves a final state or goes back to INITIATED; staying put is not a move.
 */
export const MOVES_INTO: Readonly<Record<PurchaseState, readonly PurchaseState[]>> = {
  INITIATED: [],
  AUTHORIZED: ["INITIATED"],
  CREDITED: ["INITIATED", "AUTHORIZED"],
  CANCELLED: ["INITIATED", "AUTHORIZED"],
  FAILED: ["INITIATED", "AUTHORIZED"],
  ABANDONED: ["INITIATED"],
};

/** The states a purchase can still leave: the ones not final. */
export const OPEN_STATES: readonly PurchaseState[] = (Object.keys(MOVES_INTO) as PurchaseState[]).filter((state) =>
  Object.values(MOVES_INTO).some((from) => from.includes(state)),
);

/** The state begin writes a purchase in: the one no move leads into (nobody has seen it approved). */
export const START_STATE = "INITIATED" satisfies PurchaseState;

/**
 * The final states a purchase reaches without payment (spec 3.1: nothing credited); the one
 * final state with payment is CREDITED. Reconciliation credits any of them from the platform's
 * report alike, should the order have settled after all (docs/settlement.md).
 */
export const UNPAID_ENDS = ["CANCELLED", "FAILED", "ABANDONED"] as const satisfies readonly PurchaseState[];
export type UnpaidEnd = (typeof UNPAID_ENDS)[number];

export function isFinal(state: PurchaseState): boolean {
  return !OPEN_STATES.includes(state);
}

export function canMove(from: PurchaseState, to: PurchaseState): boolean {
  return MOVES_INTO[to].includes(from);
}

/** What to do about an order, given what the platform says of it. */
export type SettlementStep =
  /** Not approved yet: stay INITIATED (the sweeper cancels or abandons it once it is old enough). */
  | "wait"
  /** Approved, not captured: FinalizeTxn, then credit; AUTHORIZED meanwhile. */
  | "finalize"
  /** Captured: credit now (also heals a crash between FinalizeTxn and the credit). */
  | "credit"
  /** Declined, and the game said so: CANCELLED. */
  | "cancel"
  /** A web order nobody came back for within the settlement window: ABANDONED, never finalized. */
  | "abandon"
  /** The platform did not complete the order: FAILED, nothing credited. */
  | "fail";

/**
 * Maps the platform's order status to the next step. `authorized` is the game's hint from the
 * platform's callback (spec 4.4), undefined for the sweeper: it never decides whether the player
 * paid, only whether a `Failed` order reads as the player's decline (CANCELLED) or as an order the
 * platform did not complete (FAILED). An order refunded in full or charged back before we
 * credited it was never ours to credit: FAILED; one partly refunded was paid for in part: credited,
 * its refunded share reversed with it.
 */
export function settlementStep(status: OrderStatus, authorized: boolean | undefined): SettlementStep {
  switch (status) {
    case "Init":
      return "wait";
    case "Approved":
      return "finalize";
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
  abandon: "ABANDONED",
  fail: "FAILED",
} as const satisfies Record<SettlementStep, PurchaseState>;

/**
 * Reference 3.1 "Web flow": a web order is finalized only when its player came back from the
 * platform's approval page; one nobody came back for is abandoned even when approved. So an
 * approved web order still INITIATED waits, unless this settlement is the player's return. Once
 * a return began the capture (AUTHORIZED) the player did come back, and any settler may finish
 * it as it finishes an in-game order's.
 */
export function webOrderStep(
  step: SettlementStep,
  order: { channel: PurchaseChannel; state: PurchaseState; playerReturned: boolean },
): SettlementStep {
  const unreturned = order.channel === "WEB" && order.state === START_STATE && !order.playerReturned;
  return step === "finalize" && unreturned ? "wait" : step;
}

/**
 * How an order left unapproved past the settlement window ends: an in-game one is cancelled, a
 * web one abandoned (its player never came back; docs/settlement.md "Abandoned web orders").
 */
export function unapprovedStep(channel: PurchaseChannel): "cancel" | "abandon" {
  return channel === "WEB" ? "abandon" : "cancel";
}

/** The state a step leads to. */
export function stateAfter<S extends SettlementStep>(step: S): (typeof STATE_AFTER)[S] {
  return STATE_AFTER[step];
}

/** What a begin repeated with a known requestId is answered (spec 4.3 rule 3, 3.1 last row). */
export type RepeatedBeginAnswer =
  /** Its first attempt's order was opened (or the purchase has moved on since): the same purchase. */
  | "same-purchase"
  /** It ended without payment: ORDER_REFUSED, so the game never waits for an overlay not coming. */
  | "order-refused"
  /** Its InitTxn is still running: the first attempt's own answer, once it has one. */
  | "opening"
  /** Its InitTxn ended without an answer: whether the platform has the order is asked (QueryTxn). */
  | "ask-platform";

/**
 * The answer from the first attempt's stored purchase: its state, whether the platform's
 * transaction id is recorded (the order was opened), and whether its InitTxn is over (its end
 * recorded, or too long ago to be running still).
 */
export function repeatedBeginAnswer(first: {
  state: PurchaseState;
  opened: boolean;
  initTxnOver: boolean;
}): RepeatedBeginAnswer {
  if ((UNPAID_ENDS as readonly PurchaseState[]).includes(first.state)) return "order-refused";
  if (first.opened || first.state !== START_STATE) return "same-purchase";
  return first.initTxnOver ? "ask-platform" : "opening";
}
