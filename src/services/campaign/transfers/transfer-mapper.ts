import { create } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { CampaignSchema } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import {
  Transfer_Mode,
  type TransferPlan,
  TransferPlanSchema,
  TransferSchema,
} from "../../../../gen/encore/campaign/v1/transfer_pb.js";
import { type Operation, OperationSchema } from "../../../../gen/google/longrunning/operations_pb.js";
import type { TransferPlanView } from "../../../domain/transfer-plan.js";
import type { CampaignRow } from "../../../store/campaigns.js";
import type { TransferRecord } from "../../../store/transfers.js";
import { toCampaign, toTransfer } from "../campaigns/campaign-mapper.js";

export const OPERATIONS_PREFIX = "operations/";

export function toTransferPlan(sourceProject: string, view: TransferPlanView): TransferPlan {
  return create(TransferPlanSchema, {
    sourceProject,
    candidates: view.candidates.map((c) => ({
      resource: c.name,
      region: c.region,
      belongsToGame: c.belongsToGame,
      clientFacing: c.clientFacing,
      movable: c.movable,
      needsAcknowledgement: c.needsAcknowledgement,
    })),
    recommendedMode: view.recommendedMode === "CONVERT" ? Transfer_Mode.CONVERT : Transfer_Mode.MOVE,
    explanation: view.explanation,
    warnings: view.warnings,
    unlistedRegions: view.unlistedRegions,
  });
}

/**
 * A transfer as its google.longrunning.Operation: metadata the Transfer; once it succeeded the
 * response is the campaign (ready by then), once it failed the error says which items failed.
 * A transfer waiting for an acknowledgement is not done.
 */
export function toOperation(transfer: TransferRecord, campaign: CampaignRow, publicUrl: string): Operation {
  const metadata = toTransfer({ accountId: transfer.accountId, id: transfer.campaignId }, transfer);
  const base = { name: `${OPERATIONS_PREFIX}${transfer.id}`, metadata: anyPack(TransferSchema, metadata) };
  if (transfer.state === "SUCCEEDED") {
    return create(OperationSchema, {
      ...base,
      done: true,
      result: { case: "response", value: anyPack(CampaignSchema, toCampaign(campaign, publicUrl)) },
    });
  }
  if (transfer.state === "FAILED") {
    const message = `The transfer stopped: ${transfer.error || "an item could not be moved"}.`;
    return create(OperationSchema, {
      ...base,
      done: true,
      result: { case: "error", value: { code: Code.FailedPrecondition, message, details: [] } },
    });
  }
  return create(OperationSchema, { ...base, done: false });
}
