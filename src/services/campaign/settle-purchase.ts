import { isFinal, type PurchaseState, type SettlementStep, settlementStep } from "../../domain/purchase-state.js";
import type { OrderRef, PlatformResult, TxnState } from "../../platform/steam/steam-platform.js";
import {
  creditPurchase,
  endPurchase,
  markAuthorized,
  markLinkCredentialInvalid,
  type PurchaseRecord,
  readPurchaseState,
  recordTransId,
} from "../../store/purchases.js";
import type { ServiceDeps } from "../deps.js";
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
  if (query.kind !== "ok") return onQueryFailed(deps, purchase, query);
  if (purchase.transId === null) await recordTransId(deps.db, purchase.id, query.value.transid);
  const step = settlementStep(query.value.status, options.authorized);
  if (step === "wait") return waitOrCancel(deps, purchase, options);
  if (step === "finalize") return finalize(deps, purchase, ref, options);
  return apply(deps, purchase, step);
}

async function onQueryFailed(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  query: Exclude<PlatformResult<TxnState>, { kind: "ok" }>,
): Promise<SettleResult> {
  if (query.kind === "unavailable") return { kind: "unavailable", cause: query.cause };
  if (query.keyRejected) {
    await markLinkCredentialInvalid(deps.db, purchase.linkId);
    return { kind: "unavailable", cause: "the platform rejected the studio's key" };
  }
  // The platform does not know an order whose InitTxn was never answered: it never reached
  // the platform, so nothing can be paid for it (reference 3.13).
  if (purchase.transId === null) return apply(deps, purchase, "fail");
  return { kind: "unavailable", cause: `QueryTxn refused (${query.code}) for a known order` };
}

async function waitOrCancel(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  options: SettleOptions,
): Promise<SettleResult> {
  const before = options.cancelUnapprovedBefore;
  if (before && purchase.state === "INITIATED" && purchase.createTime <= before) return apply(deps, purchase, "cancel");
  return { kind: "settled", state: purchase.state };
}

async function finalize(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  ref: OrderRef,
  options: SettleOptions,
): Promise<SettleResult> {
  await markAuthorized(deps.db, purchase.id, deps.now());
  const finalized = await deps.steam.finalizeTxn(ref);
  if (finalized.kind === "ok") return apply(deps, purchase, "credit");
  if (finalized.kind === "refused") {
    if (finalized.keyRejected) await markLinkCredentialInvalid(deps.db, purchase.linkId);
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

/** Applies a final step; when another caller ended the purchase first, answers what it became. */
async function apply(
  deps: ServiceDeps,
  purchase: PurchaseRecord,
  step: Exclude<SettlementStep, "wait" | "finalize">,
): Promise<SettleResult> {
  const now = deps.now();
  if (step === "credit") await creditPurchase(deps.db, purchase.id, now);
  else await endPurchase(deps.db, purchase.id, step === "cancel" ? "CANCELLED" : "FAILED", now);
  const state = await readPurchaseState(deps.db, purchase.id);
  return { kind: "settled", state: state ?? purchase.state };
}
