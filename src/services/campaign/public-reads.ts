import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createGetPublicFunding } from "./get-public-funding.js";
import { createListPublicOffers } from "./list-public-offers.js";

/** The two anonymous reads a game makes (spec 4.1, 4.2). */
export function createPublicReads(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  return {
    getPublicFunding: createGetPublicFunding(deps),
    listPublicOffers: createListPublicOffers(deps),
  };
}
