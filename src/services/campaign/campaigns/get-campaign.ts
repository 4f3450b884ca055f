import type { HandlerContext } from "@connectrpc/connect";
import type { Campaign } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import type { GetCampaignRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findCampaign } from "../../../store/campaigns.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toCampaign } from "./campaign-mapper.js";

/** GetCampaign (spec 4.6): carries campaign_key, verification, project and transfer. */
export function createGetCampaign(deps: ServiceDeps) {
  return async (request: GetCampaignRequest, ctx: HandlerContext): Promise<Campaign> => {
    const name = readName(resources.campaign, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "encore.encores.get", name, text: request.name }, (n) =>
      findCampaign(deps.db, n.accountId, n.campaignId),
    );
    return toCampaign(row, deps.config.publicUrl);
  };
}
