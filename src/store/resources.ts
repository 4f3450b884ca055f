import type { Resource } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";
import { chargeUsage, lockResource } from "./ledger.js";
import type { Db } from "./open-database.js";

// Resources of projects, in regions, at an hourly price (encore.hosting.v1 Resource), and the
// regions table whose `listing_fails` simulates a region the host cannot list.

export type ResourceRow = Resource;
export type NewResource = Omit<ResourceRow, "meteredUntil">;

/** Creates the resource (its region too, when new); it is metered from its creation. */
export async function insertResource(db: DbClient, row: NewResource): Promise<ResourceRow> {
  await db.region.upsert({ where: { name: row.region }, create: { name: row.region }, update: {} });
  return db.resource.create({ data: { ...row, meteredUntil: row.createTime } });
}

export function findResource(db: DbClient, projectId: string, resourceId: string): Promise<ResourceRow | null> {
  return db.resource.findFirst({ where: { id: resourceId, projectId } });
}

/**
 * Deletes it after charging its usage so far to the project, so no running time goes unpaid;
 * false when the project holds no such resource.
 */
export function deleteResource(
  db: Db,
  options: { projectId: string; resourceId: string; now: Date },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const locked = await lockResource(tx, options.resourceId);
    if (!locked || locked.projectId !== options.projectId) return false;
    await chargeUsage(tx, { resource: locked, until: options.now, maxPieces: Number.MAX_SAFE_INTEGER });
    await tx.resource.delete({ where: { id: options.resourceId } });
    return true;
  });
}

/** Regions whose listing fails right now, sorted. */
export async function failingRegions(db: DbClient): Promise<string[]> {
  const rows = await db.region.findMany({
    where: { listingFails: true },
    orderBy: { name: "asc" },
    select: { name: true },
  });
  return rows.map((row) => row.name);
}

/** The operator-side switch that makes a region's listing fail (or work again). */
export async function setRegionListingFails(db: DbClient, region: string, listingFails: boolean): Promise<void> {
  await db.region.upsert({ where: { name: region }, create: { name: region, listingFails }, update: { listingFails } });
}

/** A project's resources outside `skipRegions`, in id order, one page at a time. */
export function listResources(
  db: DbClient,
  options: { projectId: string; skipRegions: readonly string[]; page: IdPage },
): Promise<ResourceRow[]> {
  const { projectId, skipRegions, page } = options;
  return db.resource.findMany(idPageQuery({ projectId, region: { notIn: [...skipRegions] } }, page));
}

/** What a move may do with a resource, decided by the caller on the locked row. */
export type MoveDecision =
  | { kind: "refuse"; outcome: "unmovable" | "needsAcknowledgement" }
  | { kind: "move"; freshDisk: boolean };

export type MoveResult = "moved" | "missing" | "unmovable" | "needsAcknowledgement";

/**
 * Moves a resource between projects in one transaction: its usage so far is charged to the
 * project it leaves, then it joins the target. Already in the target counts as moved, so a
 * repeat after a crash does nothing; its row lock orders it against metering and other moves.
 */
export function moveResourceRow(
  db: Db,
  move: {
    resourceId: string;
    fromProjectId: string;
    toProjectId: string;
    at: Date;
    decide: (row: ResourceRow) => MoveDecision;
  },
): Promise<MoveResult> {
  return db.$transaction(async (tx) => {
    const locked = await lockResource(tx, move.resourceId);
    if (!locked) return "missing";
    if (locked.projectId === move.toProjectId) return "moved";
    if (locked.projectId !== move.fromProjectId) return "missing";
    const decision = move.decide(await tx.resource.findUniqueOrThrow({ where: { id: move.resourceId } }));
    if (decision.kind === "refuse") return decision.outcome;
    await chargeUsage(tx, { resource: locked, until: move.at, maxPieces: Number.MAX_SAFE_INTEGER });
    await tx.resource.update({
      where: { id: move.resourceId },
      data: { projectId: move.toProjectId, ...(decision.freshDisk ? { diskCopyable: true } : {}) },
    });
    return "moved";
  });
}
