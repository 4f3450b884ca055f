import type { HandlerContext } from "@connectrpc/connect";
import type { GetOfferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Offer } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { findOffer } from "../../../store/offers.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toOffer } from "./offer-mapper.js";

export function createGetOffer(deps: ServiceDeps) {
  return async (request: GetOfferRequest, ctx: HandlerContext): Promise<Offer> => {
    const name = readName(resources.offer, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "encore.offers.get", name, text: request.name }, (n) =>
      findOffer(deps.db, n),
    );
    return toOffer(name.accountId, row);
  };
}
