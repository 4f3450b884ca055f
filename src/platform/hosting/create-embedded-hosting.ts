import { needsAcknowledgement } from "../../domain/transfer-plan.js";
import type { Db } from "../../store/open-database.js";
import {
  failingRegions,
  listResources,
  type MoveDecision,
  moveResourceRow,
  type ResourceRow,
} from "../../store/resources.js";
import type { HostedResource, HostingPlatform, ResourceMove } from "./hosting-platform.js";

const LISTING_PAGE = 500;

/** The host embedded in this service, over the projects, resources and regions tables. */
export function createEmbeddedHosting(db: Db): HostingPlatform {
  return {
    async listProjectResources(projectId) {
      const unreachable = await failingRegions(db);
      const resources: HostedResource[] = [];
      let afterId: string | undefined;
      for (;;) {
        const page = await listResources(db, {
          projectId,
          skipRegions: unreachable,
          page: { after: afterId, take: LISTING_PAGE },
        });
        resources.push(...page);
        if (page.length < LISTING_PAGE) break;
        afterId = page[page.length - 1]?.id;
      }
      return { resources, unreachable };
    },
    moveResource: (move) => moveResourceRow(db, { ...move, decide: (row) => decide(move, row) }),
  };
}

/**
 * An unmovable resource stays; a copy of a stopped server whose disk cannot be copied needs
 * the studio's acceptance, and then arrives with a new, empty disk, copyable like any other.
 */
function decide(move: ResourceMove, row: ResourceRow): MoveDecision {
  if (!row.movable) return { kind: "refuse", outcome: "unmovable" };
  const blank = move.copy && needsAcknowledgement(row);
  if (blank && !move.freshInstall) return { kind: "refuse", outcome: "needsAcknowledgement" };
  return { kind: "move", freshDisk: blank };
}
