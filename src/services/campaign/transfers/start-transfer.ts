import type { StartTransferRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import { Transfer_Mode } from "../../../../gen/encore/campaign/v1/transfer_pb.js";
import type { Operation } from "../../../../gen/google/longrunning/operations_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { newId } from "../../../core/ids.js";
import { readRequestId } from "../../../domain/request-id.js";
import { resources } from "../../../domain/resource-names.js";
import type { TransferMode, TransferPlanView } from "../../../domain/transfer-plan.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import { type CampaignRow, findCampaign } from "../../../store/campaigns.js";
import type { ProjectRow } from "../../../store/projects.js";
import {
  beginTransfer,
  campaignIsReady,
  findTransfer,
  findTransferByRequest,
  type TransferRecord,
} from "../../../store/transfers.js";
import { TRANSFER_LEASE_MS, workTransfer } from "../../../usecases/transfer-steps.js";
import { notFoundMessage } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { planFromHost } from "./host-plan.js";
import { loadTransferAccess } from "./transfer-access.js";
import { toOperation } from "./transfer-mapper.js";

const modes: Partial<Record<Transfer_Mode, TransferMode>> = {
  [Transfer_Mode.CONVERT]: "CONVERT",
  [Transfer_Mode.MOVE]: "MOVE",
};

/**
 * StartTransfer (spec 3.3, 4.6). MODE_CONVERT plans again, is refused unless the fresh plan
 * recommends it, and completes within the call. MODE_MOVE records the chosen resources and
 * returns at once; the mover job moves them. Idempotent on `request_id`.
 */
export function createStartTransfer(deps: ServiceDeps): CampaignImpl["startTransfer"] {
  return async (request, ctx) => {
    const { campaign, source } = await loadTransferAccess(deps, ctx, request);
    const mode = modes[request.mode];
    if (!mode) throw invalidArgument('"mode" must be MODE_CONVERT or MODE_MOVE.');
    const requestId = readRequestId(request.requestId) ?? null;
    // A repeated request id is answered with the operation it started, whatever happened since.
    const repeated = requestId === null ? undefined : await findTransferByRequest(deps.db, campaign.id, requestId);
    if (repeated) return operationOf(deps, repeated);
    await refuseIfUnderWay(deps, campaign, request.name);
    const plan = await planFromHost(deps, campaign, source);
    const resourceIds =
      mode === "CONVERT" ? convertible(deps, plan, request.name) : movable(deps, { plan, request, source });
    const started = await begin(deps, { request, campaign, source, mode, requestId, resourceIds });
    return operationOf(deps, started);
  };
}

interface Begin {
  request: StartTransferRequest;
  campaign: CampaignRow;
  source: ProjectRow;
  mode: TransferMode;
  requestId: string | null;
  resourceIds: string[];
}

/** Records the transfer (decided under the campaign's row lock); a convert is worked on at once. */
async function begin(deps: ServiceDeps, options: Begin): Promise<TransferRecord> {
  const { request, campaign, mode } = options;
  const now = deps.now();
  // MODE_CONVERT holds the transfer's lease from the start: the mover leaves it to this call.
  const leaseUntil = mode === "CONVERT" ? new Date(now.getTime() + TRANSFER_LEASE_MS) : null;
  const begun = await beginTransfer(deps.db, {
    id: newId(now),
    campaignId: campaign.id,
    sourceProjectId: options.source.id,
    mode,
    acknowledgeWarnings: request.acknowledgeWarnings,
    requestId: options.requestId,
    resourceIds: options.resourceIds,
    now,
    leaseUntil,
  });
  if (begun.kind === "absent") throw notFound(`${request.name} was not found.`);
  if (begun.kind === "alreadyTransferred") throw alreadyTransferred(deps, request.name);
  if (begun.kind === "running") throw transferRunning(deps, request.name, begun.transferId);
  if (begun.kind === "created" && leaseUntil !== null) {
    const lease = { transferId: begun.transfer.id, until: leaseUntil };
    await workTransfer(deps, lease, { maxItems: Number.MAX_SAFE_INTEGER });
  }
  return begun.transfer;
}

/** Spec 4.6: ALREADY_TRANSFERRED once the campaign is ready; TRANSFER_RUNNING while one is under way. */
async function refuseIfUnderWay(deps: ServiceDeps, campaign: CampaignRow, subject: string): Promise<void> {
  if (await campaignIsReady(deps.db, campaign.id)) throw alreadyTransferred(deps, subject);
  const latest = campaign.transfers[0];
  if (latest && (latest.state === "RUNNING" || latest.state === "AWAITING_ACKNOWLEDGEMENT")) {
    throw transferRunning(deps, subject, latest.id);
  }
}

const alreadyTransferred = (deps: ServiceDeps, subject: string) =>
  deps.refuse("ALREADY_TRANSFERRED", { subject, message: "The game is already in the campaign's project." });

const transferRunning = (deps: ServiceDeps, subject: string, transferId: string) =>
  deps.refuse("TRANSFER_RUNNING", {
    subject,
    message: "A transfer of this campaign is under way.",
    metadata: { operation: `operations/${transferId}` },
  });

function convertible(deps: ServiceDeps, plan: TransferPlanView, subject: string): string[] {
  if (plan.recommendedMode !== "CONVERT") {
    throw deps.refuse("CANNOT_CONVERT", { subject, message: plan.explanation });
  }
  return plan.candidates.map((c) => idOf(c.name));
}

function movable(
  deps: ServiceDeps,
  options: { plan: TransferPlanView; request: StartTransferRequest; source: ProjectRow },
): string[] {
  const { plan, request, source } = options;
  if (request.resources.length === 0) throw invalidArgument('"resources" must name what to move (MODE_MOVE).');
  const candidates = new Map(plan.candidates.map((c) => [c.name, c]));
  const ids = new Set<string>();
  for (const name of request.resources) {
    const parsed = resources.resource.parse(name);
    const candidate = candidates.get(name);
    if (!parsed.ok || parsed.value.projectId !== source.id || !candidate) {
      throw invalidArgument(`"resources": ${name} is not a listed resource of the source project.`);
    }
    if (!candidate.belongsToGame) throw invalidArgument(`"resources": ${name} does not belong to the campaign's game.`);
    if (!candidate.movable) throw invalidArgument(`"resources": ${name} cannot be moved.`);
    ids.add(parsed.value.resourceId);
  }
  if (plan.warnings.length > 0 && !request.acknowledgeWarnings) {
    throw deps.refuse("WARNINGS_NOT_ACKNOWLEDGED", {
      subject: request.name,
      message: `The plan has warnings; set acknowledgeWarnings after reading them: ${plan.warnings.join(" ")}`,
      metadata: { warnings: String(plan.warnings.length) },
    });
  }
  return [...ids];
}

function idOf(resourceName: string): string {
  return resourceName.slice(resourceName.lastIndexOf("/") + 1);
}

async function operationOf(deps: ServiceDeps, started: TransferRecord): Promise<Operation> {
  const transfer = (await findTransfer(deps.db, started.id)) ?? started;
  const campaign = await findCampaign(deps.db, transfer.accountId, transfer.campaignId);
  if (!campaign) throw notFound(notFoundMessage(resources.campaign.format(transfer)));
  return toOperation(transfer, campaign, deps.config.publicUrl);
}
