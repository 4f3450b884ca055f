import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListReviewsRequest,
  ListReviewsResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { listCampaigns } from "../../store/campaigns.js";
import { toCampaign } from "../campaign/campaign-mapper.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens, readPageSize } from "../page-token.js";
import { requireOperator } from "../principal.js";
import { readReviewFilter } from "./review-filter.js";

/** Campaigns of every account in one state, oldest first: the operator's review queue. */
export function createListReviews(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListReviewsRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListReviewsResponseSchema>> => {
    requireOperator(ctx);
    const state = readReviewFilter(request.filter);
    const size = readPageSize(request.pageSize);
    const scope = `reviews:${state}`;
    const after = pages.decode(scope, request.pageToken);
    const rows = await listCampaigns(deps.db, { state, after, take: size + 1 });
    const page = pages.page({ scope, rows, size, cursorOf: (row) => row.pageCursor });
    return { campaigns: page.items.map(toCampaign), nextPageToken: page.nextPageToken };
  };
}
