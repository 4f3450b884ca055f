import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListReviewsRequest,
  type ListReviewsResponse,
  ListReviewsResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listCampaigns } from "../../store/campaigns.js";
import { toCampaign } from "../campaign/campaigns/campaign-mapper.js";
import { listPage } from "../list-page.js";
import { requireOperator } from "../principal.js";
import { readReviewFilter } from "./review-filter.js";

/** Campaigns of every account in one state, oldest first: the operator's review queue. */
export function createListReviews(deps: ServiceDeps) {
  return async (request: ListReviewsRequest, ctx: HandlerContext): Promise<ListReviewsResponse> => {
    requireOperator(ctx);
    const state = readReviewFilter(request.filter);
    const page = await listPage(deps, request, {
      scope: `reviews:${state}`,
      load: (next) => listCampaigns(deps.db, { state, ...next }),
      cursorOf: (row) => row.pageCursor,
    });
    return create(ListReviewsResponseSchema, {
      campaigns: page.items.map((row) => toCampaign(row, deps.config.publicUrl)),
      nextPageToken: page.nextPageToken,
    });
  };
}
