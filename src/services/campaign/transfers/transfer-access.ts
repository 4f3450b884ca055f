import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument } from "../../../errors/status.js";
import { type CampaignRow, findCampaign } from "../../../store/campaigns.js";
import { findProject, type ProjectRow } from "../../../store/projects.js";
import { authorizeName, loadAuthorized } from "../../management-access.js";

// Who may transfer (spec 5): `encore.transfers.start` on the campaign AND
// `project.projects.update` on the source project; lacking either is NOT_FOUND (spec 5.3).

export interface TransferAccess {
  campaign: CampaignRow;
  source: ProjectRow;
}

export async function loadCampaignForTransfer(
  deps: ServiceDeps,
  ctx: HandlerContext,
  text: string,
): Promise<CampaignRow> {
  const campaign = authorizeName(ctx, "encore.transfers.start", resources.campaign, text);
  return loadAuthorized(campaign, (n) => findCampaign(deps.db, n.accountId, n.campaignId));
}

/**
 * The campaign a PlanTransfer or StartTransfer `request` names, and its source project, which
 * must be another of the account's ordinary projects.
 */
export async function loadTransferAccess(
  deps: ServiceDeps,
  ctx: HandlerContext,
  request: { name: string; sourceProject: string },
): Promise<TransferAccess> {
  const campaign = await loadCampaignForTransfer(deps, ctx, request.name);
  const project = authorizeName(ctx, "project.projects.update", resources.project, request.sourceProject, {
    field: "sourceProject",
  });
  const source = await loadAuthorized(project, async (n) =>
    n.accountId === campaign.accountId ? findProject(deps.db, n.accountId, n.projectId) : undefined,
  );
  if (source.id === campaign.projectId) throw invalidArgument('"sourceProject" is the campaign\'s own project.');
  if (source.topUpOnly) {
    throw invalidArgument('"sourceProject" is a campaign\'s project; the game must come from an ordinary one.');
  }
  return { campaign, source };
}
