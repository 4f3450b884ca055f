import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteOfferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { notFound } from "../../../errors/status.js";
import { deleteOrDeactivateOffer, findOffer } from "../../../store/offers.js";
import { expectedVersion, staleEtag } from "../../etag-check.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";

/** DeleteOffer (spec 3.3, 4.6): an offer somebody bought is deactivated instead; the call succeeds either way. */
export function createDeleteOffer(deps: ServiceDeps) {
  return async (request: DeleteOfferRequest, ctx: HandlerContext): Promise<Empty> => {
    const name = readName(resources.offer, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "encore.offers.delete", name.accountId, message);
    // Offers are reached only through their campaign's account.
    if (!(await findOffer(deps.db, name))) throw notFound(message);
    const outcome = await deleteOrDeactivateOffer(deps.db, {
      campaignId: name.campaignId,
      offerId: name.offerId,
      expectedVersion: expectedVersion(request.etag),
      now: deps.now(),
    });
    if (outcome === "absent") throw notFound(message);
    if (outcome === "stale") throw staleEtag(deps, request.name);
    return create(EmptySchema);
  };
}
