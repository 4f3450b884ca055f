import type { HandlerContext } from "@connectrpc/connect";
import type { GetOperationRequest, Operation } from "../../../gen/google/longrunning/operations_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { notFound } from "../../errors/status.js";
import { findCampaign } from "../../store/campaigns.js";
import { findTransfer } from "../../store/transfers.js";
import { OPERATIONS_PREFIX, toOperation } from "../campaign/transfers/transfer-mapper.js";
import { authorize } from "../principal.js";

const OPERATION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * GetOperation: a transfer's operation, to whoever can see its campaign (encore.encores.get);
 * anyone else is told it does not exist (spec 5.3).
 */
export function createGetOperation(deps: ServiceDeps) {
  return async (request: GetOperationRequest, ctx: HandlerContext): Promise<Operation> => {
    const message = `${request.name} was not found.`;
    const id = request.name.startsWith(OPERATIONS_PREFIX) ? request.name.slice(OPERATIONS_PREFIX.length) : "";
    const transfer = OPERATION_ID.test(id) ? await findTransfer(deps.db, id) : undefined;
    if (!transfer) throw notFound(message);
    authorize(ctx, "encore.encores.get", transfer.accountId, message);
    const campaign = await findCampaign(deps.db, transfer.accountId, transfer.campaignId);
    if (!campaign) throw notFound(message);
    return toOperation(transfer, campaign, deps.config.publicUrl);
  };
}
