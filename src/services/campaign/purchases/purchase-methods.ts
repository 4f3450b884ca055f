import type { ServiceDeps } from "../../../core/deps.js";
import { createBeginPurchase } from "./begin-purchase.js";
import { createCompletePurchase } from "./complete-purchase.js";
import { createGetPurchase } from "./get-purchase.js";
import { createListPurchases } from "./list-purchases.js";

/**
 * Purchases: the two anonymous calls by which a player pays and the game's servers get credit
 * (spec 4.3, 4.4), and the studio's reads of them (spec 4.6).
 */
export function createPurchaseMethods(deps: ServiceDeps) {
  return {
    beginPurchase: createBeginPurchase(deps),
    completePurchase: createCompletePurchase(deps),
    getPurchase: createGetPurchase(deps),
    listPurchases: createListPurchases(deps),
  };
}
