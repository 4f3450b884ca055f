import type { HandlerContext } from "@connectrpc/connect";
import type { GetOfferRequest } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Offer } from "../../../gen/encore/campaign/v1/offer_pb.js";
import { parseOfferName } from "../../domain/resource-names.js";
import { findOffer } from "../../store/offers.js";
import type { ServiceDeps } from "../deps.js";
import { loadAuthorized, readName } from "./management-access.js";
import { toOffer } from "./offer-mapper.js";

export const OFFER_SHAPE = "accounts/{account}/campaigns/{campaign}/offers/{offer}";

export function createGetOffer(deps: ServiceDeps) {
  return async (request: GetOfferRequest, ctx: HandlerContext): Promise<Offer> => {
    const name = readName(parseOfferName(request.name), "name", OFFER_SHAPE);
    const row = await loadAuthorized({ ctx, permission: "encore.offers.get", name, text: request.name }, (n) =>
      findOffer(deps.db, n),
    );
    return toOffer(name.accountId, row);
  };
}
