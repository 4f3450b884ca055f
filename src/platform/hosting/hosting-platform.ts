import type { ResourceTraits } from "../../domain/transfer-plan.js";

// The host platform as the campaign side sees it (DESIGN 2: platform/hosting): listing a
// project's resources region by region, and moving one resource into another project. The
// embedded implementation works over our own tables; a real deployment replaces it with the
// host's API behind this same interface.

export interface HostedResource extends ResourceTraits {
  id: string;
  projectId: string;
}

export interface ProjectListing {
  resources: HostedResource[];
  /** Regions whose resources could not be listed. */
  unreachable: string[];
}

export interface ResourceMove {
  resourceId: string;
  fromProjectId: string;
  toProjectId: string;
  /**
   * Whether the resource is copied to the target (MODE_MOVE) rather than handed over in place
   * (MODE_CONVERT); a copy of a stopped server whose disk cannot be copied needs `freshInstall`.
   */
  copy: boolean;
  /** The studio accepted that the server arrives without its disk (AcknowledgeTransferItem). */
  freshInstall: boolean;
  /** Usage up to this moment is the source project's; from it on, the target's. */
  at: Date;
}

/**
 * `moved` also when the resource already is in the target: a move is safe to repeat after a
 * crash. `missing`: no longer in the source project (deleted, or moved elsewhere).
 */
export type MoveOutcome = "moved" | "missing" | "unmovable" | "needsAcknowledgement";

export interface HostingPlatform {
  listProjectResources(projectId: string): Promise<ProjectListing>;
  moveResource(move: ResourceMove): Promise<MoveOutcome>;
}
