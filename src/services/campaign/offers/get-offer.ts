import type { HandlerContext } from "@connectrpc/connect";
import type { GetOfferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Offer } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findOffer } from "../../../store/offers.js";
import { authorizeName, loadAuthorized } from "../../management-access.js";
import { toOffer } from "./offer-mapper.js";

export function createGetOffer(deps: ServiceDeps) {
  return async (request: GetOfferRequest, ctx: HandlerContext): Promise<Offer> => {
    const offer = authorizeName(ctx, "encore.offers.get", resources.offer, request.name);
    return toOffer(offer.name.accountId, await loadAuthorized(offer, (n) => findOffer(deps.db, n)));
  };
}
