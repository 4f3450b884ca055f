import type { ServiceImpl } from "@connectrpc/connect";
import type { Operations } from "../../../gen/google/longrunning/operations_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { invalidArgument, notFound, unimplemented } from "../../errors/status.js";
import { type CampaignRow, findCampaign } from "../../store/campaigns.js";
import { findTransfer, listTransfers } from "../../store/transfers.js";
import { OPERATIONS_PREFIX, toOperation } from "../campaign/transfers/transfer-mapper.js";
import { listPage } from "../list-page.js";
import { authorize, requirePrincipal } from "../principal.js";
import { parseOperationsFilter } from "./operations-filter.js";

const OPERATION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * google.longrunning.Operations over transfers (spec 4.6: StartTransfer returns an Operation).
 * Delete, Cancel and Wait are not offered: a transfer is a one-way decision that is neither
 * cancelled nor forgotten; they answer UNIMPLEMENTED.
 */
export function createOperationsService(deps: ServiceDeps): ServiceImpl<typeof Operations> {
  const notOffered = (what: string) => async (): Promise<never> => {
    throw unimplemented(`${what} is not offered: a transfer is neither cancelled nor forgotten.`);
  };
  return {
    /**
     * GetOperation: a transfer's operation, to whoever can see its campaign (encore.encores.get);
     * anyone else is told it does not exist (spec 5.3).
     */
    async getOperation(request, ctx) {
      const message = `${request.name} was not found.`;
      const id = request.name.startsWith(OPERATIONS_PREFIX) ? request.name.slice(OPERATIONS_PREFIX.length) : "";
      const transfer = OPERATION_ID.test(id) ? await findTransfer(deps.db, id) : undefined;
      if (!transfer) throw notFound(message);
      authorize(ctx, "encore.encores.get", transfer.accountId, message);
      const campaign = await findCampaign(deps.db, transfer.accountId, transfer.campaignId);
      if (!campaign) throw notFound(message);
      return toOperation(transfer, campaign, deps.config.publicUrl);
    },

    /**
     * ListOperations (name `operations`): the transfers of the campaigns the caller can see, newest
     * first; `filter` may narrow them to one campaign. Another account's campaign lists nothing.
     */
    async listOperations(request, ctx) {
      if (request.name !== "operations") throw invalidArgument('"name" must be "operations".');
      const principal = requirePrincipal(ctx);
      if (principal.kind === "operator") throw notFound("operations was not found.");
      const { accountId } = principal;
      authorize(ctx, "encore.encores.get", accountId, "operations was not found.");
      const campaign = parseOperationsFilter(request.filter);
      if (campaign && campaign.accountId !== accountId) return {};
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
      return {
        operations: page.items.flatMap((transfer) => {
          const row = campaigns.get(transfer.campaignId);
          return row ? [toOperation(transfer, row, deps.config.publicUrl)] : [];
        }),
        nextPageToken: page.nextPageToken,
      };
    },

    deleteOperation: notOffered("DeleteOperation"),
    cancelOperation: notOffered("CancelOperation"),
    waitOperation: notOffered("WaitOperation"),
  };
}
