import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteCampaignRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { notFound } from "../../../errors/status.js";
import { deleteCampaign } from "../../../store/campaigns.js";
import { expectedVersion, staleEtag } from "../../etag-check.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";

/** DeleteCampaign (spec 3.3, 4.6): CAMPAIGN_TRANSFERRED once a transfer started or a purchase was made. */
export function createDeleteCampaign(deps: ServiceDeps) {
  return async (request: DeleteCampaignRequest, ctx: HandlerContext): Promise<Empty> => {
    const name = readName(resources.campaign, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "encore.encores.delete", name.accountId, message);
    const outcome = await deleteCampaign(deps.db, { ...name, expectedVersion: expectedVersion(request.etag) });
    if (outcome === "absent") throw notFound(message);
    if (outcome === "stale") throw staleEtag(deps, request.name);
    if (outcome === "transferredOrBought") {
      throw deps.refuse("CAMPAIGN_TRANSFERRED", {
        subject: request.name,
        message: "The campaign can no longer be deleted: a transfer was started or a purchase was made.",
      });
    }
    return create(EmptySchema);
  };
}
