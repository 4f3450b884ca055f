import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteOfferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { deleteOrDeactivateOffer, findOffer } from "../../../store/offers.js";
import { deletionOutcome, expectedVersion } from "../../etag-check.js";
import { authorizeName, loadAuthorized } from "../../management-access.js";

/** DeleteOffer (spec 3.3, 4.6): an offer somebody bought is deactivated instead; the call succeeds either way. */
export function createDeleteOffer(deps: ServiceDeps) {
  return async (request: DeleteOfferRequest, ctx: HandlerContext): Promise<Empty> => {
    const offer = authorizeName(ctx, "encore.offers.delete", resources.offer, request.name);
    // Offers are reached only through their campaign's account.
    await loadAuthorized(offer, (n) => findOffer(deps.db, n));
    const { campaignId, offerId } = offer.name;
    const version = expectedVersion(request.etag);
    const deletion = await deleteOrDeactivateOffer(deps.db, {
      campaignId,
      offerId,
      expectedVersion: version,
      now: deps.now(),
    });
    deletionOutcome(deps, deletion, offer);
    return create(EmptySchema);
  };
}
