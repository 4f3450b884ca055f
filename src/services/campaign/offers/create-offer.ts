import type { HandlerContext } from "@connectrpc/connect";
import {
  type CreateOfferRequest,
  CreateOfferRequestSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Offer } from "../../../../gen/encore/campaign/v1/offer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { newId } from "../../../core/ids.js";
import { findOfferByRequest, insertOffer } from "../../../store/offers.js";
import { createOnce, idempotencyColumns, readIdempotency } from "../../create-once.js";
import { loadParentCampaign } from "../../management-access.js";
import { offerDescription, offerDisplayName, pricing } from "./offer-fields.js";
import { toOffer } from "./offer-mapper.js";

/**
 * CreateOffer (spec 4.6): priced in whole US cents; active unless said otherwise. Idempotent
 * on request_id within the campaign (AIP-155).
 */
export function createCreateOffer(deps: ServiceDeps) {
  return async (request: CreateOfferRequest, ctx: HandlerContext): Promise<Offer> => {
    const name = await loadParentCampaign(deps, ctx, "encore.offers.create", request.parent);
    const idempotency = readIdempotency(deps.masterKeys, CreateOfferRequestSchema, request);
    const row = await createOnce({
      idempotency,
      findEarlier: (requestId) => findOfferByRequest(deps.db, name.campaignId, requestId),
      create: () => {
        const offer = request.offer;
        const displayName = offerDisplayName(offer);
        const description = offerDescription(offer);
        const { priceNanos, creditNanos } = pricing(deps, offer?.price, offer?.credit);
        const now = deps.now();
        return insertOffer(deps.db, {
          id: newId(now),
          campaignId: name.campaignId,
          displayName,
          description,
          priceNanos,
          creditNanos,
          active: offer?.active ?? true,
          now,
          ...idempotencyColumns(idempotency),
        });
      },
      resource: "offer",
    });
    return toOffer(name.accountId, row);
  };
}
