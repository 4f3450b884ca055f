import { Prisma } from "../../gen/prisma/client.js";
import { holdLease, takeDueLeases, takeLease } from "./leases.js";
import type { Db } from "./open-database.js";

// The reconciliation job's share of the store: replicas lease distributor links (leases.ts,
// "reconcile"), so each link is reconciled by one at a time; a lease that outlives a crashed
// replica runs out and the link is picked up again.

export interface ReconciliationTask {
  linkId: string;
  sandbox: boolean;
  publisherKeyEncrypted: Uint8Array;
  createTime: Date;
  /** The lease this replica holds. */
  leaseUntil: Date;
}

type LeasedRow = Omit<ReconciliationTask, "leaseUntil">;

const RETURNING = Prisma.sql`id AS "linkId", sandbox, publisher_key_encrypted AS "publisherKeyEncrypted", create_time AS "createTime"`;

/**
 * Takes active links with at least one campaign whose last pass ended at or before `dueBefore`
 * (or that never had one), skipping links another replica holds.
 */
export async function leaseDueLinks(
  db: Db,
  options: { now: Date; dueBefore: Date; leaseUntil: Date; limit: number },
): Promise<ReconciliationTask[]> {
  const rows = await takeDueLeases<LeasedRow>(db, "reconcile", {
    now: options.now,
    until: options.leaseUntil,
    due: Prisma.sql`state = 'ACTIVE'
      AND (reconcile_time IS NULL OR reconcile_time <= ${options.dueBefore})
      AND EXISTS (SELECT 1 FROM campaigns c WHERE c.link_id = distributor_links.id)`,
    orderBy: Prisma.sql`reconcile_time NULLS FIRST, id`,
    limit: options.limit,
    returning: RETURNING,
  });
  return rows.map((row) => ({ ...row, leaseUntil: options.leaseUntil }));
}

/**
 * The operator's demand: leases one link whatever its last pass, unless another replica holds
 * it right now. Undefined when the link does not exist or is held.
 */
export async function leaseLink(
  db: Db,
  options: { linkId: string; now: Date; leaseUntil: Date },
): Promise<ReconciliationTask | undefined> {
  const { linkId: id, now, leaseUntil: until } = options;
  const row = await takeLease<LeasedRow>(db, "reconcile", { id, now, until, returning: RETURNING });
  return row && { ...row, leaseUntil: until };
}

/**
 * The lease a pass holds on its link, renewed before each page; given back when the pass ends,
 * one that drained the report also recording when it ended.
 */
export function holdLinkLease(
  db: Db,
  task: ReconciliationTask,
  options: { now: () => Date; leaseMs: number },
): { renew(): Promise<boolean>; release(drained: boolean): Promise<void> } {
  const lease = holdLease(db, "reconcile", { id: task.linkId, heldUntil: task.leaseUntil, ...options });
  return {
    renew: lease.renew,
    release: (drained) =>
      lease.release(
        Prisma.sql`reconcile_time = CASE WHEN ${drained} THEN ${options.now()}::timestamptz ELSE reconcile_time END`,
      ),
  };
}
