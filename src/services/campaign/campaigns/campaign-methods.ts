import type { ServiceDeps } from "../../../core/deps.js";
import { createCreateCampaign } from "./create-campaign.js";
import { createDeleteCampaign } from "./delete-campaign.js";
import { createGetCampaign } from "./get-campaign.js";
import { createGetFunding } from "./get-funding.js";
import { createGetFundingHistory } from "./get-funding-history.js";
import { createListCampaigns } from "./list-campaigns.js";
import { createRetryVerification } from "./retry-verification.js";
import { createUpdateCampaign } from "./update-campaign.js";

/** Campaigns, their verification and their funding as the studio sees it (spec 3.2, 4.6). */
export function createCampaignMethods(deps: ServiceDeps) {
  return {
    createCampaign: createCreateCampaign(deps),
    getCampaign: createGetCampaign(deps),
    listCampaigns: createListCampaigns(deps),
    updateCampaign: createUpdateCampaign(deps),
    deleteCampaign: createDeleteCampaign(deps),
    retryVerification: createRetryVerification(deps),
    getFunding: createGetFunding(deps),
    getFundingHistory: createGetFundingHistory(deps),
  };
}
