import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { createCreateCampaign } from "./create-campaign.js";
import { createDeleteCampaign } from "./delete-campaign.js";
import { createGetCampaign } from "./get-campaign.js";
import { createGetFunding } from "./get-funding.js";
import { createListCampaigns } from "./list-campaigns.js";
import { createRetryVerification } from "./retry-verification.js";
import { createUpdateCampaign } from "./update-campaign.js";

/** Campaigns, their verification and their funding as the studio sees it (spec 3.2, 4.6). */
export function createCampaignMethods(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  const tokens = createPageTokens(deps.masterKey);
  return {
    createCampaign: createCreateCampaign(deps),
    getCampaign: createGetCampaign(deps),
    listCampaigns: createListCampaigns(deps, tokens),
    updateCampaign: createUpdateCampaign(deps),
    deleteCampaign: createDeleteCampaign(deps),
    retryVerification: createRetryVerification(deps),
    getFunding: createGetFunding(deps),
  };
}
