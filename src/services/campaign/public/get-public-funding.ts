import type { GetPublicFundingRequest, PublicFunding } from "../../../../gen/encore/campaign/v1/public_pb.js";
import { shapePublicFunding } from "../../../domain/funding.js";
import type { PublicCampaign } from "../../../usecases/read-public-campaign.js";
import { freezeMessage } from "../../freeze-message.js";
import { toPublicFunding } from "./public-mapper.js";

/**
 * `POST /v1/public/funding:get` (spec 4.1). The read cache hands every caller of a campaign the
 * same facts until they change, so those callers share one answer, frozen, whose JSON the REST
 * layer renders once.
 */
export function createGetPublicFunding(readCampaign: (campaignKey: string) => Promise<PublicCampaign>) {
  const answers = new WeakMap<PublicCampaign, PublicFunding>();
  return async (request: GetPublicFundingRequest): Promise<PublicFunding> => {
    const campaign = await readCampaign(request.campaignKey);
    let answer = answers.get(campaign);
    if (answer === undefined) {
      answer = freezeMessage(toPublicFunding(shapePublicFunding(campaign)));
      answers.set(campaign, answer);
    }
    return answer;
  };
}
