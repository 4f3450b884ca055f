import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { CampaignServiceDeps } from "./deps.js";
import { createGetPublicFunding } from "./get-public-funding.js";
import { createListPublicOffers } from "./list-public-offers.js";

/**
 * The implementation of encore.campaign.v1.CampaignService. Methods not listed here are
 * answered UNIMPLEMENTED by the router until they are built.
 */
export function createCampaignService(deps: CampaignServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  return {
    getPublicFunding: createGetPublicFunding(deps),
    listPublicOffers: createListPublicOffers(deps),
  };
}
