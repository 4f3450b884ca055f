import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListCampaignsRequest,
  type ListCampaignsResponse,
  ListCampaignsResponseSchema,
} from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { parseCampaignFilter } from "../../../domain/campaign-filter.js";
import { invalidArgument } from "../../../errors/status.js";
import { listCampaigns } from "../../../store/campaigns.js";
import { listPage } from "../../list-page.js";
import { authorizeParent } from "../../management-access.js";
import { toCampaign } from "./campaign-mapper.js";

/** ListCampaigns (spec 4.6): oldest first; `filter` accepts only `state = "<VALUE>"`. */
export function createListCampaigns(deps: ServiceDeps) {
  return async (request: ListCampaignsRequest, ctx: HandlerContext): Promise<ListCampaignsResponse> => {
    const accountId = authorizeParent(ctx, "encore.encores.list", request.parent);
    const filter = parseCampaignFilter(request.filter);
    if (!filter.ok) {
      throw invalidArgument('"filter" accepts only state = "<VALUE>", e.g. state = "NEEDS_REVIEW".');
    }
    const page = await listPage(deps, request, {
      // The filter is part of the scope: a token from another filter is refused.
      scope: `campaigns:${accountId}:${filter.state ?? ""}`,
      load: (next) => listCampaigns(deps.db, { accountId, state: filter.state, ...next }),
      cursorOf: (row) => row.pageCursor,
    });
    return create(ListCampaignsResponseSchema, {
      campaigns: page.items.map((row) => toCampaign(row, deps.config.publicUrl)),
      nextPageToken: page.nextPageToken,
    });
  };
}
