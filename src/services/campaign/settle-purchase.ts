import { isFinal, type PurchaseState, type SettlementStep, settlementStep } from "../../domain/purchase-state.js";
import type { OrderRef, PlatformResult, TxnState } from "../../platform/steam/steam-platform.js";
import {
  creditPurchase,
  type EndGuard,
  endPurchase,
  markAuthorized,
  type PurchaseRecord,
  readPurchaseState,
  recordTransId,
} from "../../store/purchases.js";
import type { ServiceDeps } from "../deps.js";
import { markKeyRejected } from "./key-rejected.js";
import { orderRefOf } from "./order-ref.js";

export interface SettleOptions {
  /** The game's `authorized` flag (spec 4.4): a hint, never an answer; undefined for the sweeper. */
  authorized?: boolean;
  /** The sweeper's: an order still unapproved and begun before this is cancelled. */
  cancelUnapprovedBefore?: Date;
}

export type SettleResult = { kind: "settled"; state: PurchaseState } | { kind: "unavailable"; cause: string };

/**
 * The one settlement shared by complete and the sweeper (DESIGN 3). The state always comes from
 * the platform (QueryTxn); an approved order is finalised, then credited in one database
 * transaction conditional on the purchase's previous state, so any number of concurrent or
 * repeated callers credit at most once. No database transaction is open across a platform
 * call. A captured order not yet credited (a crash after FinalizeTxn) is credited now.
 */
export async function settlePurchase(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  options: SettleOptions = {},
): Promise<SettleResult> {
  if (isFinal(purchase.state)) return { kind: "settled", state: purchase.state };
  const ref = orderRefOf(deps, purchase);
  const query = await deps.steam.queryTxn(ref);
  if (query.kind !== "ok") return onQueryFailed(deps, purchase, ref, query);
  if (purchase.transId === null) await recordTransId(deps.db, purchase.id, query.value.transid);
  const step = settlementStep(query.value.status, options.authorized);
  if (step === "wait") return waitOrCancel(deps, purchase, options);
  if (step === "finalize") return finalize(deps, purchase, ref, options);
  return apply(deps, purchase, step);
}

async function onQueryFailed(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  ref: OrderRef,
  query: Exclude<PlatformResult<TxnState>, { kind: "ok" }>,
): Promise<SettleResult> {
  if (query.kind === "unavailable") return { kind: "unavailable", cause: query.cause };
  if (query.keyRejected) {
    await markKeyRejected(deps, purchase.linkId, ref.publisherKey);
    return { kind: "unavailable", cause: "the platform rejected the studio's key" };
  }
  // The platform does not know an order whose InitTxn was never answered: it never reached
  // the platform, so nothing can be paid for it (reference 3.13). Only while no concurrent
  // caller has since found the order (trans_id recorded) or moved the purchase on.
  if (purchase.transId === null) return apply(deps, purchase, "fail", "unconfirmed");
  return { kind: "unavailable", cause: `QueryTxn refused (${query.code}) for a known order` };
}

async function waitOrCancel(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  options: SettleOptions,
): Promise<SettleResult> {
  const before = options.cancelUnapprovedBefore;
  // Only from INITIATED: a complete that saw the order Approved meanwhile moved it to
  // AUTHORIZED and is capturing it, so it wins. When the cancel wins instead, that complete
  // never calls FinalizeTxn, and an order that is never finalized is never paid for
  // (reference 3.13: only FinalizeTxn captures the funds).
  if (before && purchase.state === "INITIATED" && purchase.createTime <= before) {
    return apply(deps, purchase, "cancel", "initiated");
  }
  return { kind: "settled", state: purchase.state };
}

async function finalize(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  ref: OrderRef,
  options: SettleOptions,
): Promise<SettleResult> {
  // Capture only a purchase this caller moved to AUTHORIZED or that is AUTHORIZED now: one
  // cancelled or failed meanwhile (its reservation released) must never be charged
  // (reference 3.13: an approved order nobody finalizes is not paid for).
  if (!(await markAuthorized(deps.db, purchase.id, deps.now()))) {
    const state = await readPurchaseState(deps.db, purchase.id);
    if (state !== "AUTHORIZED") return { kind: "settled", state: state ?? purchase.state };
  }
  const finalized = await deps.steam.finalizeTxn(ref);
  if (finalized.kind === "ok") return apply(deps, purchase, "credit");
  if (finalized.kind === "refused") {
    if (finalized.keyRejected) await markKeyRejected(deps, purchase.linkId, ref.publisherKey);
    // Already captured by a concurrent caller (error 6), or it failed meanwhile: ask again.
    const again = await deps.steam.queryTxn(ref);
    if (again.kind === "ok") {
      const step = settlementStep(again.value.status, options.authorized);
      if (step !== "wait" && step !== "finalize") return apply(deps, purchase, step);
    }
  }
  // Approved and not settled yet (spec 3.1): the next complete or the sweeper settles it.
  return { kind: "settled", state: (await readPurchaseState(deps.db, purchase.id)) ?? "AUTHORIZED" };
}

/**
 * Applies a final step (an end only while the row is as `guard` says); when another caller
 * ended the purchase first, answers what it became.
 */
async function apply(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  step: Exclude<SettlementStep, "wait" | "finalize">,
  guard: EndGuard = "open",
): Promise<SettleResult> {
  const now = deps.now();
  const moved =
    step === "credit"
      ? await creditPurchase(deps.db, purchase.id, now)
      : await endPurchase(deps.db, purchase.id, step === "cancel" ? "CANCELLED" : "FAILED", now, guard);
  const state = (await readPurchaseState(deps.db, purchase.id)) ?? purchase.state;
  if (step === "credit" && !moved && state !== "CREDITED") {
    // The platform captured the order but the purchase had ended without payment: the player
    // was charged and nothing credited. Never expected; an operator must look (spec 3.1).
    deps.logger.error({ purchaseId: purchase.id, state }, "captured order not credited: the purchase had ended");
  }
  return { kind: "settled", state };
}
