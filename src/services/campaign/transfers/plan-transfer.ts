import type { HandlerContext } from "@connectrpc/connect";
import type { PlanTransferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { TransferPlan } from "../../../../gen/encore/campaign/v1/transfer_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { planTransfer, type TransferPlanView } from "../../../domain/transfer-plan.js";
import type { CampaignRow } from "../../../store/campaigns.js";
import type { ProjectRow } from "../../../store/projects.js";
import { loadTransferAccess } from "./transfer-access.js";
import { toTransferPlan } from "./transfer-mapper.js";

/** PlanTransfer (spec 4.6): lists every candidate in every region; changes nothing. */
export function createPlanTransfer(deps: ServiceDeps) {
  return async (request: PlanTransferRequest, ctx: HandlerContext): Promise<TransferPlan> => {
    const { campaign, source } = await loadTransferAccess(deps, {
      ctx,
      name: request.name,
      sourceProject: request.sourceProject,
    });
    const view = await planFromHost(deps, campaign, source);
    return toTransferPlan(resources.project.format({ accountId: source.accountId, projectId: source.id }), view);
  };
}

/** A fresh plan from what the host lists now (StartTransfer plans again, spec 4.6). */
export async function planFromHost(
  deps: ServiceDeps,
  campaign: CampaignRow,
  source: ProjectRow,
): Promise<TransferPlanView> {
  const listing = await deps.hosting.listProjectResources(source.id);
  return planTransfer({
    campaignGameId: campaign.gameId,
    resources: listing.resources.map((resource) => ({
      ...resource,
      name: resources.resource.format({ accountId: source.accountId, projectId: source.id, resourceId: resource.id }),
    })),
    unlistedRegions: listing.unreachable,
  });
}
