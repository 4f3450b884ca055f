import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { planTransfer, type TransferPlanView } from "../../../domain/transfer-plan.js";
import type { CampaignRow } from "../../../store/campaigns.js";
import type { ProjectRow } from "../../../store/projects.js";

/** A fresh plan from what the host lists now (PlanTransfer, and StartTransfer plans again, spec 4.6). */
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
