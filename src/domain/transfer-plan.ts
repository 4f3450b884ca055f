// Planning a transfer (spec 4.6 PlanTransfer): which of the source project's resources are the
// campaign's game's, which can move, and whether the whole project can simply be converted.
// Pure: the caller lists the resources (and the regions it could not list) and shows the plan.

export type ResourceKind = "SERVER" | "DISK" | "ADDRESS";
export type ResourceState = "RUNNING" | "STOPPED";
export type TransferMode = "CONVERT" | "MOVE";

/** What a transfer plan weighs of a resource; every view of a resource carries these. */
export interface ResourceTraits {
  kind: ResourceKind;
  region: string;
  gameId: string | null;
  clientFacing: boolean;
  movable: boolean;
  state: ResourceState;
  diskCopyable: boolean;
}

/** A resource of the source project, as the host lists it. */
export interface PlanResource extends ResourceTraits {
  /** How people and requests name it (the resource name). */
  name: string;
}

export interface PlanInput {
  campaignGameId: string;
  resources: readonly PlanResource[];
  /** Regions whose resources could not be listed: the plan cannot vouch for them. */
  unlistedRegions: readonly string[];
}

export interface PlannedCandidate extends Pick<PlanResource, "name" | "region" | "clientFacing" | "movable"> {
  belongsToGame: boolean;
  needsAcknowledgement: boolean;
}

export interface TransferPlanView {
  candidates: PlannedCandidate[];
  recommendedMode: TransferMode;
  explanation: string;
  warnings: string[];
  unlistedRegions: string[];
}

/**
 * A stopped server whose disk cannot be copied can only arrive as a fresh install, which the
 * studio must accept item by item (AcknowledgeTransferItem).
 */
export function needsAcknowledgement(resource: Pick<PlanResource, "kind" | "state" | "diskCopyable">): boolean {
  return resource.kind === "SERVER" && resource.state === "STOPPED" && !resource.diskCopyable;
}

/**
 * MODE_CONVERT hands every resource of the project to the campaign at once (nothing is copied,
 * addresses stay), so it is recommended only when the project holds the game and nothing else,
 * everything could be listed and everything can change hands. Anything else is MODE_MOVE, the
 * studio choosing the resources; anything unlisted always means MODE_MOVE (spec 4.6).
 */
export function planTransfer(input: PlanInput): TransferPlanView {
  const candidates = input.resources.map((resource) => ({
    name: resource.name,
    region: resource.region,
    belongsToGame: resource.gameId === input.campaignGameId,
    clientFacing: resource.clientFacing,
    movable: resource.movable,
    needsAcknowledgement: needsAcknowledgement(resource),
  }));
  const unlistedRegions = [...new Set(input.unlistedRegions)].sort();
  const blocker = convertBlocker(candidates, unlistedRegions);
  return {
    candidates,
    recommendedMode: blocker === undefined ? "CONVERT" : "MOVE",
    explanation: blocker ?? "Every resource belongs to the campaign's game and can change hands: convert.",
    warnings: warningsOf(candidates, unlistedRegions),
    unlistedRegions,
  };
}

function convertBlocker(
  candidates: readonly PlannedCandidate[],
  unlistedRegions: readonly string[],
): string | undefined {
  if (unlistedRegions.length > 0) {
    return `Regions ${unlistedRegions.join(", ")} could not be listed, so the project cannot be converted as a whole: move the game's resources.`;
  }
  if (candidates.length === 0) return "The project holds nothing to transfer.";
  if (candidates.some((c) => !c.belongsToGame)) {
    return "The project also holds resources of other games (or of none): move the game's resources.";
  }
  if (candidates.some((c) => !c.movable)) return "Some resources cannot change hands: move the others.";
  return undefined;
}

/** What the studio accepts with `acknowledge_warnings` before a MODE_MOVE starts. */
function warningsOf(candidates: readonly PlannedCandidate[], unlistedRegions: readonly string[]): string[] {
  const warnings: string[] = [];
  for (const region of unlistedRegions) {
    warnings.push(`Region ${region} could not be listed; its resources are not in this plan and stay behind.`);
  }
  for (const c of candidates) {
    if (!c.belongsToGame) warnings.push(`${c.name} does not belong to the campaign's game and stays behind.`);
    else if (!c.movable) warnings.push(`${c.name} cannot be moved and stays behind.`);
    else {
      if (c.clientFacing) warnings.push(`${c.name} is client-facing: moving it changes its address.`);
      if (c.needsAcknowledgement) {
        warnings.push(
          `${c.name} is a stopped server whose disk cannot be copied: moved, it arrives as a fresh install once acknowledged.`,
        );
      }
    }
  }
  return warnings;
}
