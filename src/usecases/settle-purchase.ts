import type { ServiceDeps } from "../core/deps.js";
import {
  isFinal,
  type PurchaseState,
  type SettlementStep,
  START_STATE,
  settlementStep,
  stateAfter,
  unapprovedStep,
  webOrderStep,
} from "../domain/purchase-state.js";
import type { OrderRef, PlatformResult, TxnState } from "../platform/steam/steam-platform.js";
import { claimFinalize } from "../store/finalize-leases.js";
import { releaseLease } from "../store/leases.js";
import type { PublicCampaignFacts } from "../store/public-campaigns.js";
import {
  type Credit,
  creditPurchase,
  type EndGuard,
  endPurchase,
  type PurchaseRecord,
  readPurchaseState,
  recordTransId,
} from "../store/purchases.js";
import type { FindingOf } from "../store/reconciliation.js";
import { markKeyRejected } from "./key-rejected.js";
import { orderRefOf } from "./order-ref.js";

// The capture lease outlives one FinalizeTxn, which is never retried and so takes at most one
// STEAM_TIMEOUT_MS: it runs out when its holder died mid-capture, or one timeout after a
// FinalizeTxn nobody answered (then it is left to run out, see finalize()).
const FINALIZE_LEASE_TIMEOUTS = 2;

/** What settling uses: the platform, the store, and who is told of a credit. */
export type SettleDeps = Pick<
  ServiceDeps,
  "db" | "now" | "steam" | "masterKeys" | "config" | "logger" | "metrics" | "fundingChanges" | "webhookEvents"
>;

export interface SettleOptions {
  /** The game's `authorized` flag (spec 4.4): a hint, never an answer; undefined for the sweeper. */
  authorized?: boolean;
  /**
   * The sweeper's: an order still unapproved and begun before this is cancelled (a web order:
   * abandoned, also when approved, since its player never came back).
   */
  cancelUnapprovedBefore?: Date;
  /**
   * The player's return from the platform's approval page (a web order; reference 3.1 "Web
   * flow"): the one caller that may begin capturing a web order. Every other settler leaves an
   * approved web order INITIATED until its player returns or the sweeper abandons it.
   */
  playerReturned?: boolean;
  /**
   * Reconciliation's: why the report made it settle, recorded in the credit's own
   * transaction when this call credits, never otherwise.
   */
  finding?: FindingOf;
}

export type SettleResult =
  | {
      kind: "settled";
      state: PurchaseState;
      /** The campaign's public facts just after this call credited it, when the credit read them. */
      fundingAfter?: PublicCampaignFacts;
    }
  | {
      kind: "unavailable";
      cause: string;
      /** The platform rejected the publisher key the purchase was settled with. */
      keyRejected?: true;
    };

/**
 * The one settlement shared by complete and the sweeper (DESIGN 3). The state always comes from
 * the platform (QueryTxn); an approved order is finalised by the one caller holding its capture
 * lease, then credited in one database transaction conditional on the purchase's previous
 * state, so any number of concurrent or repeated callers, on any replica, capture it once and
 * credit it at most once. No database transaction is open across a platform
 * call. A captured order not yet credited (a crash after FinalizeTxn) is credited now.
 */
export async function settlePurchase(
  deps: SettleDeps,
  purchase: PurchaseRecord,
  options: SettleOptions = {},
): Promise<SettleResult> {
  if (isFinal(purchase.state)) return { kind: "settled", state: purchase.state };
  const ref = orderRefOf(deps, purchase);
  const query = await deps.steam.queryTxn(ref);
  if (query.kind !== "ok") return onQueryFailed(deps, purchase, ref, query);
  const step = webOrderStep(settlementStep(query.value.status, options.authorized), {
    channel: purchase.channel,
    state: purchase.state,
    playerReturned: options.playerReturned === true,
  });
  if (step === "wait") return waitOrCancel(deps, purchase, query.value.transid, options);
  if (step === "finalize") return finalize(deps, purchase, ref, query.value.transid, options);
  return apply(deps, purchase, { step, txn: query.value, finding: options.finding });
}

async function onQueryFailed(
  deps: SettleDeps,
  purchase: PurchaseRecord,
  ref: OrderRef,
  query: Exclude<PlatformResult<TxnState>, { kind: "ok" }>,
): Promise<SettleResult> {
  if (query.kind === "unavailable") return { kind: "unavailable", cause: query.cause };
  if (query.keyRejected) {
    await markKeyRejected(deps, purchase.linkId, ref.publisherKey);
    return { kind: "unavailable", cause: "the platform rejected the studio's key", keyRejected: true };
  }
  // The platform does not know the order: it never reached the platform (an InitTxn that went
  // unanswered; the sweeper comes long after any begin's InitTxn is over), so nothing can be paid
  // for it (reference 3.13). Only while no concurrent caller has since found the order (trans_id
  // recorded) or moved the purchase on.
  if (purchase.transId === null) return apply(deps, purchase, { step: "fail", guard: "unconfirmed" });
  return { kind: "unavailable", cause: `QueryTxn refused (${query.code}) for a known order` };
}

async function waitOrCancel(
  deps: SettleDeps,
  purchase: PurchaseRecord,
  transId: string,
  options: SettleOptions,
): Promise<SettleResult> {
  const before = options.cancelUnapprovedBefore;
  // Only from INITIATED: a complete that saw the order Approved meanwhile moved it to
  // AUTHORIZED and is capturing it, so it wins. When the cancel wins instead, that complete
  // never calls FinalizeTxn, and an order that is never finalized is never paid for
  // (reference 3.13: only FinalizeTxn captures the funds). A web order is abandoned the same
  // way, approved or not: a return that began capturing it first wins, one that comes after
  // finds it ABANDONED and never calls FinalizeTxn (docs/settlement.md "Abandoned web orders").
  if (before && purchase.state === START_STATE && purchase.createTime <= before) {
    return apply(deps, purchase, { step: unapprovedStep(purchase.channel), guard: "initiated" });
  }
  // The platform knows the order: recorded once (when the begin's own record was lost), so a begin
  // retried with its requestId answers from the row and the sweeper never takes it for an order
  // that never reached the platform.
  if (purchase.transId === null) await recordTransId(deps.db, purchase.id, transId);
  return { kind: "settled", state: purchase.state };
}

async function finalize(
  deps: SettleDeps,
  purchase: PurchaseRecord,
  ref: OrderRef,
  transId: string,
  options: SettleOptions,
): Promise<SettleResult> {
  // Capture only a purchase that is still open (one cancelled or failed meanwhile, its
  // reservation released, must never be charged: reference 3.13), and only as the one caller
  // holding its capture lease: a complete, the sweeper or another replica already capturing it
  // is answered with the state it is in (AUTHORIZED; the game polls on, spec 3.1), and never
  // sends a second FinalizeTxn.
  const lease = await claimFinalize(deps.db, {
    purchaseId: purchase.id,
    transId,
    now: deps.now(),
    leaseMs: FINALIZE_LEASE_TIMEOUTS * deps.config.steam.timeoutMs,
  });
  if (!lease) return { kind: "settled", state: (await readPurchaseState(deps.db, purchase.id)) ?? purchase.state };
  const finalized = await deps.steam.finalizeTxn(ref);
  if (finalized.kind === "ok") return apply(deps, purchase, { step: "credit", finding: options.finding });
  if (finalized.kind === "refused") {
    // Steam answered, so this capture is over: the next caller may capture (it asks QueryTxn first).
    await releaseLease(deps.db, "capture", lease);
    if (finalized.keyRejected) await markKeyRejected(deps, purchase.linkId, ref.publisherKey);
    // It failed meanwhile, or was captured after all: ask again.
    const again = await deps.steam.queryTxn(ref);
    if (again.kind === "ok") {
      const step = settlementStep(again.value.status, options.authorized);
      if (step !== "wait" && step !== "finalize")
        return apply(deps, purchase, { step, txn: again.value, finding: options.finding });
    }
  }
  // Unanswered (timeout, reset, 5xx): Steam may have captured, or may still, and a caller that
  // read Approved before now would capture again if the lease were given back. It is kept until
  // it runs out: meanwhile every caller asks QueryTxn, which credits a capture that landed
  // without a second FinalizeTxn (reference 1.7: after a FinalizeTxn timeout, QueryTxn first).
  // Approved and not settled yet (spec 3.1): the next complete or the sweeper settles it.
  return { kind: "settled", state: (await readPurchaseState(deps.db, purchase.id)) ?? "AUTHORIZED" };
}

/**
 * Applies a final step (an end only while the row is as `guard` says, "open" unless given);
 * when another caller ended the purchase first, answers what it became.
 */
async function apply(
  deps: SettleDeps,
  purchase: PurchaseRecord,
  end: { step: Exclude<SettlementStep, "wait" | "finalize">; guard?: EndGuard; txn?: TxnState; finding?: FindingOf },
): Promise<SettleResult> {
  const { step } = end;
  const now = deps.now();
  if (step === "credit") {
    const credited = await credit(deps, purchase, end, now);
    if (credited.credited) {
      deps.metrics?.purchaseEnded("CREDITED", purchase);
      // Before anyone is answered: no public read here may still show the balance before it.
      deps.fundingChanges?.changed(purchase.campaignKey);
      const { fundingAfter } = credited;
      return { kind: "settled", state: "CREDITED", ...(fundingAfter && { fundingAfter }) };
    }
  } else if (await endPurchase(deps.db, { purchaseId: purchase.id, to: stateAfter(step), now, guard: end.guard })) {
    deps.metrics?.purchaseEnded(stateAfter(step), purchase);
    return { kind: "settled", state: stateAfter(step) };
  }
  // Another caller moved it first: it is in the state that caller moved it to.
  const state = (await readPurchaseState(deps.db, purchase.id)) ?? purchase.state;
  if (step === "credit" && state !== "CREDITED") {
    // The platform captured the order but the purchase had ended without payment: the player
    // was charged and nothing credited yet. Never expected; the state stays (spec 3.1) and the
    // next reconciliation credits it from the platform's report, recording why.
    deps.logger.error(
      { purchaseId: purchase.id, state },
      "captured order not credited: the purchase had ended; reconciliation credits it from the report",
    );
  }
  return { kind: "settled", state };
}

function credit(
  deps: SettleDeps,
  purchase: PurchaseRecord,
  { txn, finding }: { txn?: TxnState; finding?: FindingOf },
  now: Date,
): Promise<Credit> {
  const events = deps.webhookEvents;
  return creditPurchase(deps.db, purchase.id, now, {
    // Settled and partly refunded before we credited: credit with its reversal.
    partialRefund: txn?.status === "PartialRefund" ? { row: txn, platformTime: new Date(txn.time) } : undefined,
    finding,
    // purchase.credited commits with the credit (when something hears it; a credit nobody
    // hears stays one statement).
    ...(events && {
      ifHeard: (tx, credited) => events.purchaseCredited(tx, { purchaseId: purchase.id, ...credited }, now),
    }),
  });
}
