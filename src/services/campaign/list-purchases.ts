import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListPurchasesRequest,
  type ListPurchasesResponse,
  ListPurchasesResponseSchema,
} from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { parseCampaignName } from "../../domain/resource-names.js";
import { campaignExists } from "../../store/campaigns.js";
import { listPurchases } from "../../store/purchases-read.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { CAMPAIGN_SHAPE } from "./get-campaign.js";
import { loadAuthorized, readName } from "./management-access.js";
import { toPurchase } from "./purchase-mapper.js";

/** ListPurchases (spec 4.6): newest first. */
export function createListPurchases(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListPurchasesRequest, ctx: HandlerContext): Promise<ListPurchasesResponse> => {
    const name = readName(parseCampaignName(request.parent), "parent", CAMPAIGN_SHAPE);
    await loadAuthorized({ ctx, permission: "encore.purchases.list", name, text: request.parent }, async (n) =>
      (await campaignExists(deps.db, n.accountId, n.campaignId)) ? n : undefined,
    );
    const size = readPageSize(request.pageSize);
    const scope = `purchases:${name.campaignId}`;
    const rows = await listPurchases(deps.db, {
      campaignId: name.campaignId,
      after: tokens.decode(scope, request.pageToken),
      take: size + 1,
    });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => row.pageCursor });
    return create(ListPurchasesResponseSchema, {
      purchases: page.items.map((row) => toPurchase(name.accountId, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
