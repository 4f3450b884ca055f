import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteCampaignRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { deleteCampaign } from "../../../store/campaigns.js";
import { deletionOutcome, expectedVersion } from "../../etag-check.js";
import { authorizeName } from "../../management-access.js";

/** DeleteCampaign (spec 3.3, 4.6): CAMPAIGN_TRANSFERRED once a transfer started or a purchase was made. */
export function createDeleteCampaign(deps: ServiceDeps) {
  return async (request: DeleteCampaignRequest, ctx: HandlerContext): Promise<Empty> => {
    const campaign = authorizeName(ctx, "encore.encores.delete", resources.campaign, request.name);
    const deletion = await deleteCampaign(deps.db, {
      ...campaign.name,
      expectedVersion: expectedVersion(request.etag),
    });
    if (deletionOutcome(deps, deletion, campaign) === "transferredOrBought") {
      throw deps.refuse("CAMPAIGN_TRANSFERRED", {
        subject: request.name,
        message: "The campaign can no longer be deleted: a transfer was started or a purchase was made.",
      });
    }
    return create(EmptySchema);
  };
}
