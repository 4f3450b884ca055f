import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createCampaignMethods } from "./campaign-methods.js";
import { createLinkMethods } from "./link-methods.js";
import { createOfferMethods } from "./offer-methods.js";
import { createPublicReads } from "./public-reads.js";
import { createPurchaseFlow } from "./purchase-flow.js";
import { createTransferMethods } from "./transfer-methods.js";

/**
 * encore.campaign.v1.CampaignService, composed of method groups, one module each. A method no
 * group implements is answered UNIMPLEMENTED by the router.
 */
export function createCampaignService(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  return {
    ...createPublicReads(deps),
    ...createLinkMethods(deps),
    ...createCampaignMethods(deps),
    ...createOfferMethods(deps),
    ...createPurchaseFlow(deps),
    ...createTransferMethods(deps),
  };
}
