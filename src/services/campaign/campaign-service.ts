import type { ServiceDeps } from "../../core/deps.js";
import type { CampaignImpl } from "./campaign-impl.js";
import { createCampaignMethods } from "./campaigns/campaign-methods.js";
import { createLinkMethods } from "./links/link-methods.js";
import { createOfferMethods } from "./offers/offer-methods.js";
import { createPublicReads } from "./public/public-reads.js";
import { createPurchaseMethods } from "./purchases/purchase-methods.js";
import { createTransferMethods } from "./transfers/transfer-methods.js";

/**
 * encore.campaign.v1.CampaignService, composed of method groups, one module each. The groups
 * together implement every method: one no group implements fails to compile here.
 */
export function createCampaignService(deps: ServiceDeps): CampaignImpl {
  return {
    ...createPublicReads(deps),
    ...createLinkMethods(deps),
    ...createCampaignMethods(deps),
    ...createOfferMethods(deps),
    ...createPurchaseMethods(deps),
    ...createTransferMethods(deps),
  };
}
