import type { GetPublicFundingRequest, PublicFunding } from "../../../../gen/encore/campaign/v1/public_pb.js";
import { shapePublicFunding } from "../../../domain/funding.js";
import { toPublicFunding } from "./public-mapper.js";
import type { PublicCampaign } from "./read-public-campaign.js";

/** `POST /v1/public/funding:get` (spec 4.1). */
export function createGetPublicFunding(readCampaign: (campaignKey: string) => Promise<PublicCampaign>) {
  return async (request: GetPublicFundingRequest): Promise<PublicFunding> => {
    const campaign = await readCampaign(request.campaignKey);
    return toPublicFunding(shapePublicFunding(campaign));
  };
}
