import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListCampaignsRequest,
  type ListCampaignsResponse,
  ListCampaignsResponseSchema,
} from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { parseCampaignFilter } from "../../domain/campaign-filter.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";
import { listCampaigns } from "../../store/campaigns.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { authorize } from "../principal.js";
import { toCampaign } from "./campaign-mapper.js";
import { notFoundMessage, readName } from "./management-access.js";

/** ListCampaigns (spec 4.6): oldest first; `filter` accepts only `state = "<VALUE>"`. */
export function createListCampaigns(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListCampaignsRequest, ctx: HandlerContext): Promise<ListCampaignsResponse> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", "accounts/{account}");
    authorize(ctx, "encore.encores.list", accountId, notFoundMessage(request.parent));
    const filter = parseCampaignFilter(request.filter);
    if (!filter.ok) {
      throw invalidArgument('"filter" accepts only state = "<VALUE>", e.g. state = "NEEDS_REVIEW".');
    }
    const size = readPageSize(request.pageSize);
    // The filter is part of the scope: a token from another filter is refused.
    const scope = `campaigns:${accountId}:${filter.state ?? ""}`;
    const rows = await listCampaigns(deps.db, {
      accountId,
      state: filter.state,
      after: tokens.decode(scope, request.pageToken),
      take: size + 1,
    });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => row.pageCursor });
    return create(ListCampaignsResponseSchema, {
      campaigns: page.items.map(toCampaign),
      nextPageToken: page.nextPageToken,
    });
  };
}
