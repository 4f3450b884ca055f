import type { AcknowledgeTransferItemRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import { type CampaignRow, findCampaign } from "../../../store/campaigns.js";
import { markItem, settleTransfer } from "../../../store/transfer-progress.js";
import { notFoundMessage } from "../../management-access.js";
import { authorize } from "../../principal.js";
import { emitTransferState } from "../../webhooks/resource-events.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { toCampaign } from "../campaigns/campaign-mapper.js";
import { loadCampaignForTransfer } from "./transfer-access.js";

interface WaitingItem {
  transferId: string;
  sourceProjectId: string;
  resourceId: string;
}

/**
 * AcknowledgeTransferItem (spec 4.6): the studio accepts that one stopped server whose disk
 * cannot be copied arrives as a fresh install; it is moved so within the call. Any other item,
 * or one not waiting, is NOT_AWAITING_ACKNOWLEDGEMENT.
 */
export function createAcknowledgeTransferItem(deps: ServiceDeps): CampaignImpl["acknowledgeTransferItem"] {
  return async (request, ctx) => {
    const campaign = await loadCampaignForTransfer(deps, ctx, request.name);
    // Spec 5: moving out of the source project needs project.projects.update on it; checked
    // before anything is said about the item (spec 5.3: NOT_FOUND first).
    const source = campaign.transfers[0]?.sourceProjectId;
    const project =
      source === undefined
        ? request.resource
        : resources.project.format({ accountId: campaign.accountId, projectId: source });
    authorize(ctx, "project.projects.update", campaign.accountId, notFoundMessage(project));
    const item = waitingItem(deps, campaign, request);
    const outcome = await deps.hosting.moveResource({
      resourceId: item.resourceId,
      fromProjectId: item.sourceProjectId,
      toProjectId: campaign.projectId,
      copy: true,
      freshInstall: true,
      at: deps.now(),
    });
    const accepted = outcome === "moved";
    await markItem(deps.db, {
      transferId: item.transferId,
      resourceId: item.resourceId,
      from: ["AWAITING_ACKNOWLEDGEMENT"],
      to: accepted ? "FRESH_INSTALL" : "FAILED",
      detail: accepted ? "accepted as a fresh install" : `could not be moved (${outcome})`,
    });
    const now = deps.now();
    await settleTransfer(deps.db, {
      transferId: item.transferId,
      now,
      inTransaction: (tx) => emitTransferState(tx, item.transferId, now),
    });
    const updated = await findCampaign(deps.db, campaign.accountId, campaign.id);
    if (!updated) throw notFound(notFoundMessage(request.name));
    return toCampaign(updated, deps.config.publicUrl);
  };
}

/** The item of the campaign's latest transfer the request names, if it waits for an acknowledgement. */
function waitingItem(deps: ServiceDeps, campaign: CampaignRow, request: AcknowledgeTransferItemRequest): WaitingItem {
  const resource = resources.resource.parse(request.resource);
  if (!resource.ok) throw invalidArgument(resources.resource.mustBe("resource"));
  const transfer = campaign.transfers[0];
  const item = transfer?.items.find((i) => i.resourceId === resource.value.resourceId);
  const waiting =
    transfer !== undefined &&
    transfer.sourceProjectId === resource.value.projectId &&
    item?.state === "AWAITING_ACKNOWLEDGEMENT";
  if (!waiting) {
    throw deps.refuse("NOT_AWAITING_ACKNOWLEDGEMENT", {
      subject: request.name,
      message: `${request.resource} is not an item of this campaign's transfer waiting for an acknowledgement.`,
      metadata: { resource: request.resource },
    });
  }
  return { transferId: transfer.id, sourceProjectId: transfer.sourceProjectId, resourceId: resource.value.resourceId };
}
