import type { HandlerContext } from "@connectrpc/connect";
import type { CreateOfferRequest } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Offer } from "../../../gen/encore/campaign/v1/offer_pb.js";
import { parseCampaignName } from "../../domain/resource-names.js";
import { campaignExists } from "../../store/campaigns.js";
import { insertOffer } from "../../store/offers.js";
import type { ServiceDeps } from "../deps.js";
import { newId } from "../ids.js";
import { CAMPAIGN_SHAPE } from "./get-campaign.js";
import { loadAuthorized, readName } from "./management-access.js";
import { offerDescription, offerDisplayName, pricing } from "./offer-fields.js";
import { toOffer } from "./offer-mapper.js";

/** CreateOffer (spec 4.6): priced in whole US cents; active unless said otherwise. */
export function createCreateOffer(deps: ServiceDeps) {
  return async (request: CreateOfferRequest, ctx: HandlerContext): Promise<Offer> => {
    const name = readName(parseCampaignName(request.parent), "parent", CAMPAIGN_SHAPE);
    await loadAuthorized({ ctx, permission: "encore.offers.create", name, text: request.parent }, async (n) =>
      (await campaignExists(deps.db, n.accountId, n.campaignId)) ? n : undefined,
    );
    const offer = request.offer;
    const displayName = offerDisplayName(offer);
    const description = offerDescription(offer);
    const { priceNanos, creditNanos } = pricing(deps, offer?.price, offer?.credit);
    const now = deps.now();
    const row = await insertOffer(deps.db, {
      id: newId(now),
      campaignId: name.campaignId,
      displayName,
      description,
      priceNanos,
      creditNanos,
      active: offer?.active ?? true,
      now,
    });
    return toOffer(name.accountId, row);
  };
}
