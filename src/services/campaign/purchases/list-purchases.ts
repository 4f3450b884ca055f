import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListPurchasesRequest,
  type ListPurchasesResponse,
  ListPurchasesResponseSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { listPurchases } from "../../../store/purchases-read.js";
import { listPage } from "../../list-page.js";
import { loadParentCampaign } from "../../management-access.js";
import { parsePurchaseFilter } from "./purchase-filter.js";
import { toPurchase } from "./purchase-mapper.js";

/**
 * ListPurchases (spec 4.6): newest first; filtered by whether a reversal took credit back,
 * by state and by creation time.
 */
export function createListPurchases(deps: ServiceDeps) {
  return async (request: ListPurchasesRequest, ctx: HandlerContext): Promise<ListPurchasesResponse> => {
    const name = await loadParentCampaign(deps, ctx, "encore.purchases.list", request.parent);
    const filter = parsePurchaseFilter(request.filter);
    const page = await listPage(deps, request, {
      // A token of one filter is refused under another (its scope names the filter).
      scope: `purchases:${name.campaignId}${request.filter.trim() === "" ? "" : `:${request.filter}`}`,
      load: (next) => listPurchases(deps.db, { campaignId: name.campaignId, ...next, ...filter }),
      cursorOf: (row) => row.pageCursor,
    });
    return create(ListPurchasesResponseSchema, {
      purchases: page.items.map((row) => toPurchase(name.accountId, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
