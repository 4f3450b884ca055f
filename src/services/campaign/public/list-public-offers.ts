import { create } from "@bufbuild/protobuf";
import {
  type ListPublicOffersRequest,
  type ListPublicOffersResponse,
  ListPublicOffersResponseSchema,
} from "../../../../gen/encore/campaign/v1/public_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { listActiveOffers } from "../../../store/public-campaigns.js";
import { toPublicOffer } from "./public-mapper.js";
import type { PublicCampaign } from "./read-public-campaign.js";

/** `POST /v1/public/offers:list` (spec 4.2): active offers, even before verification. */
export function createListPublicOffers(
  deps: ServiceDeps,
  readCampaign: (campaignKey: string) => Promise<PublicCampaign>,
) {
  return async (request: ListPublicOffersRequest): Promise<ListPublicOffersResponse> => {
    const campaign = await readCampaign(request.campaignKey);
    const offers = await listActiveOffers(deps.db, campaign.campaignId);
    return create(ListPublicOffersResponseSchema, {
      offers: offers.map(toPublicOffer),
      purchasable: campaign.unavailableReason === undefined,
      unavailableReason: campaign.unavailableReason ?? "",
    });
  };
}
