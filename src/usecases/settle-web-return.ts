import type { ServiceDeps } from "../core/deps.js";
import type { PurchaseRecord } from "../store/purchases.js";
import { type SettleResult, settlePurchase } from "./settle-purchase.js";

/**
 * A web order's player came back from Steam's approval page (reference 3.1 "Web flow"): the
 * order is settled by the one settlement the game's complete uses, as the player's return (the
 * one settler that may begin capturing a web order), so it is finalized only when QueryTxn says
 * Approved and it is still open (never once abandoned), and credited once however often the
 * browser comes back. Coming back is the player's answer, so a Failed order reads as their
 * decline (CANCELLED), as the game's `authorized: false` does; an order still Init stays as it is.
 */
export function settleWebReturn(deps: ServiceDeps, purchase: PurchaseRecord): Promise<SettleResult> {
  return settlePurchase(deps, purchase, { authorized: false, playerReturned: true });
}
