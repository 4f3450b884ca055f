import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListOffersRequest,
  type ListOffersResponse,
  ListOffersResponseSchema,
} from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { parseCampaignName } from "../../domain/resource-names.js";
import { campaignExists } from "../../store/campaigns.js";
import { listOffers } from "../../store/offers.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { CAMPAIGN_SHAPE } from "./get-campaign.js";
import { loadAuthorized, readName } from "./management-access.js";
import { toOffer } from "./offer-mapper.js";

/** ListOffers (spec 4.6): every offer of the campaign, active or not, oldest first. */
export function createListOffers(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListOffersRequest, ctx: HandlerContext): Promise<ListOffersResponse> => {
    const name = readName(parseCampaignName(request.parent), "parent", CAMPAIGN_SHAPE);
    await loadAuthorized({ ctx, permission: "encore.offers.list", name, text: request.parent }, async (n) =>
      (await campaignExists(deps.db, n.accountId, n.campaignId)) ? n : undefined,
    );
    const size = readPageSize(request.pageSize);
    const scope = `offers:${name.campaignId}`;
    const rows = await listOffers(deps.db, {
      campaignId: name.campaignId,
      after: tokens.decode(scope, request.pageToken),
      take: size + 1,
    });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => row.pageCursor });
    return create(ListOffersResponseSchema, {
      offers: page.items.map((row) => toOffer(name.accountId, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
