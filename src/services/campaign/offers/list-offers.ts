import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListOffersRequest,
  type ListOffersResponse,
  ListOffersResponseSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { listOffers } from "../../../store/offers.js";
import { listPage } from "../../list-page.js";
import { loadParentCampaign } from "../../management-access.js";
import { toOffer } from "./offer-mapper.js";

/** ListOffers (spec 4.6): every offer of the campaign, active or not, oldest first. */
export function createListOffers(deps: ServiceDeps) {
  return async (request: ListOffersRequest, ctx: HandlerContext): Promise<ListOffersResponse> => {
    const name = await loadParentCampaign(deps, ctx, "encore.offers.list", request.parent);
    const page = await listPage(deps, request, {
      scope: `offers:${name.campaignId}`,
      load: (next) => listOffers(deps.db, { campaignId: name.campaignId, ...next }),
      cursorOf: (row) => row.pageCursor,
    });
    return create(ListOffersResponseSchema, {
      offers: page.items.map((row) => toOffer(name.accountId, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
