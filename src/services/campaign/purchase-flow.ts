import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createBeginPurchase } from "./begin-purchase.js";
import { createCompletePurchase } from "./complete-purchase.js";

/** The two anonymous calls by which a player pays and the game's servers get credit (spec 4.3, 4.4). */
export function createPurchaseFlow(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  return {
    beginPurchase: createBeginPurchase(deps),
    completePurchase: createCompletePurchase(deps),
  };
}
