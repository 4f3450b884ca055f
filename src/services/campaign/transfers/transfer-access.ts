import type { HandlerContext } from "@connectrpc/connect";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import { type CampaignRow, findCampaign } from "../../../store/campaigns.js";
import { findProject, type ProjectRow } from "../../../store/projects.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";

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
  const name = readName(resources.campaign, text, "name");
  const message = notFoundMessage(text);
  authorize(ctx, "encore.transfers.start", name.accountId, message);
  const campaign = await findCampaign(deps.db, name.accountId, name.campaignId);
  if (!campaign) throw notFound(message);
  return campaign;
}

/** The source project, which must be another of the account's ordinary projects. */
export async function loadSourceProject(
  deps: ServiceDeps,
  options: { ctx: HandlerContext; campaign: CampaignRow; text: string },
): Promise<ProjectRow> {
  const { ctx, campaign, text } = options;
  const name = readName(resources.project, text, "sourceProject");
  const message = notFoundMessage(text);
  authorize(ctx, "project.projects.update", name.accountId, message);
  const source =
    name.accountId === campaign.accountId ? await findProject(deps.db, name.accountId, name.projectId) : undefined;
  if (!source) throw notFound(message);
  if (source.id === campaign.projectId) throw invalidArgument('"sourceProject" is the campaign\'s own project.');
  if (source.topUpOnly)
    throw invalidArgument('"sourceProject" is a campaign\'s project; the game must come from an ordinary one.');
  return source;
}

export async function loadTransferAccess(
  deps: ServiceDeps,
  options: { ctx: HandlerContext; name: string; sourceProject: string },
): Promise<TransferAccess> {
  const campaign = await loadCampaignForTransfer(deps, options.ctx, options.name);
  const source = await loadSourceProject(deps, { ctx: options.ctx, campaign, text: options.sourceProject });
  return { campaign, source };
}
