import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListOperationsRequest,
  type ListOperationsResponse,
  ListOperationsResponseSchema,
} from "../../../gen/google/longrunning/operations_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { type CampaignRow, findCampaign } from "../../store/campaigns.js";
import { listTransfers } from "../../store/transfers.js";
import { toOperation } from "../campaign/transfers/transfer-mapper.js";
import { listPage } from "../list-page.js";
import { authorize, requirePrincipal } from "../principal.js";
import { parseOperationsFilter } from "./operations-filter.js";

/**
 * ListOperations (name `operations`): the transfers of the campaigns the caller can see, newest
 * first; `filter` may narrow them to one campaign. Another account's campaign lists nothing.
 */
export function createListOperations(deps: ServiceDeps) {
  return async (request: ListOperationsRequest, ctx: HandlerContext): Promise<ListOperationsResponse> => {
    if (request.name !== "operations") throw invalidArgument('"name" must be "operations".');
    const principal = requirePrincipal(ctx);
    if (principal.kind === "operator") throw notFound("operations was not found.");
    const { accountId } = principal;
    authorize(ctx, "encore.encores.get", accountId, "operations was not found.");
    const campaign = parseOperationsFilter(request.filter);
    const empty = create(ListOperationsResponseSchema, {});
    if (campaign && campaign.accountId !== accountId) return empty;
    const page = await listPage(deps, request, {
      scope: `operations:${accountId}:${request.filter}`,
      load: (next) => listTransfers(deps.db, { accountId, campaignId: campaign?.campaignId, ...next }),
      cursorOf: (row) => [row.createTime.toISOString(), row.id],
    });
    const campaigns = new Map<string, CampaignRow | null>();
    for (const transfer of page.items) {
      if (!campaigns.has(transfer.campaignId)) {
        campaigns.set(transfer.campaignId, await findCampaign(deps.db, accountId, transfer.campaignId));
      }
    }
    return create(ListOperationsResponseSchema, {
      operations: page.items.flatMap((transfer) => {
        const row = campaigns.get(transfer.campaignId);
        return row ? [toOperation(transfer, row, deps.config.publicUrl)] : [];
      }),
      nextPageToken: page.nextPageToken,
    });
  };
}
