import type { GetPublicFundingRequest, PublicFunding } from "../../../gen/encore/campaign/v1/public_pb.js";
import { shapePublicFunding } from "../../domain/funding.js";
import type { ServiceDeps } from "../deps.js";
import { toPublicFunding } from "./public-mapper.js";
import { readPublicCampaign } from "./read-public-campaign.js";

/** `POST /v1/public/funding:get` (spec 4.1). */
export function createGetPublicFunding(deps: ServiceDeps) {
  return async (request: GetPublicFundingRequest): Promise<PublicFunding> => {
    const campaign = await readPublicCampaign(deps, request.campaignKey);
    return toPublicFunding(shapePublicFunding(campaign));
  };
}
