import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findPurchase, listPurchases } from "../../../store/purchases-read.js";
import { createBegunPurchases } from "../../../usecases/begin/begun-purchases.js";
import { authorizeName, loadAuthorized, loadParentCampaign } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { listByCursor } from "../list-by-cursor.js";
import { createBeginPurchase } from "./begin-purchase.js";
import { createCompletePurchase } from "./complete-purchase.js";
import { parsePurchaseFilter } from "./purchase-filter.js";
import { toPurchase } from "./purchase-mapper.js";

/**
 * Purchases: the two anonymous calls by which a player pays and the game's servers get credit
 * (spec 4.3, 4.4), and the studio's reads of them (spec 4.6).
 */
export function createPurchaseMethods(deps: ServiceDeps): PurchaseMethods {
  // Past the cancel window the sweeper settles an order, so none is kept longer.
  const begun = createBegunPurchases({ max: BEGUN_PURCHASES_KEPT, ttlMs: deps.config.settlement.cancelAfterMs });
  return {
    beginPurchase: createBeginPurchase(deps, begun),
    completePurchase: createCompletePurchase(deps, begun),

    async getPurchase(request, ctx) {
      const purchase = authorizeName(ctx, "encore.purchases.get", resources.purchase, request.name);
      return toPurchase(purchase.name.accountId, await loadAuthorized(purchase, (n) => findPurchase(deps.db, n)));
    },

    /**
     * ListPurchases (spec 4.6): newest first; filtered by whether a reversal took credit back,
     * by state and by creation time.
     */
    async listPurchases(request, ctx) {
      const name = await loadParentCampaign(deps, ctx, "encore.purchases.list", request.parent);
      const filter = parsePurchaseFilter(request.filter);
      const page = await listByCursor(deps, request, {
        // A token of one filter is refused under another (its scope names the filter).
        scope: `purchases:${name.campaignId}${request.filter.trim() === "" ? "" : `:${request.filter}`}`,
        load: (next) => listPurchases(deps.db, { campaignId: name.campaignId, ...next, ...filter }),
      });
      return { purchases: page.items.map((row) => toPurchase(name.accountId, row)), nextPageToken: page.nextPageToken };
    },
  };
}

/** Purchases begun here and kept for their complete (begun-purchases.ts): a few hundred bytes each. */
const BEGUN_PURCHASES_KEPT = 10_000;

type PurchaseMethods = Pick<CampaignImpl, "beginPurchase" | "completePurchase" | "getPurchase" | "listPurchases">;
