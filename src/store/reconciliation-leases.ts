import type { Db } from "./open-database.js";

// The reconciliation job's share of the store: several replicas lease distributor
// links with FOR UPDATE SKIP LOCKED, so each link is reconciled by one at a time; a lease that
// outlives a crashed replica runs out and the link is picked up again.

export interface ReconciliationTask {
  linkId: string;
  sandbox: boolean;
  publisherKeyEncrypted: Uint8Array;
  createTime: Date;
  /** The lease this replica holds. */
  leaseUntil: Date;
}

interface LeasedRow {
  id: string;
  sandbox: boolean;
  publisher_key_encrypted: Uint8Array;
  create_time: Date;
}

const toTask = (row: LeasedRow, leaseUntil: Date): ReconciliationTask => ({
  linkId: row.id,
  sandbox: row.sandbox,
  publisherKeyEncrypted: row.publisher_key_encrypted,
  createTime: row.create_time,
  leaseUntil,
});

/**
 * Takes active links with at least one campaign whose last pass ended at or before `dueBefore`
 * (or that never had one), skipping links another replica holds.
 */
export async function leaseDueLinks(
  db: Db,
  options: { now: Date; dueBefore: Date; leaseUntil: Date; limit: number },
): Promise<ReconciliationTask[]> {
  const rows = await db.$queryRaw<LeasedRow[]>`
    UPDATE distributor_links SET reconcile_lease_until = ${options.leaseUntil}
     WHERE id IN (
       SELECT d.id FROM distributor_links d
        WHERE d.state = 'ACTIVE'
          AND (d.reconcile_lease_until IS NULL OR d.reconcile_lease_until <= ${options.now})
          AND (d.reconcile_time IS NULL OR d.reconcile_time <= ${options.dueBefore})
          AND EXISTS (SELECT 1 FROM campaigns c WHERE c.link_id = d.id)
        ORDER BY d.reconcile_time NULLS FIRST, d.id
        LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, sandbox, publisher_key_encrypted, create_time`;
  return rows.map((row) => toTask(row, options.leaseUntil));
}

/**
 * The operator's demand: leases one link whatever its last pass, unless another replica holds
 * it right now. Undefined when the link does not exist or is held.
 */
export async function leaseLink(
  db: Db,
  options: { linkId: string; now: Date; leaseUntil: Date },
): Promise<ReconciliationTask | undefined> {
  const rows = await db.$queryRaw<LeasedRow[]>`
    UPDATE distributor_links SET reconcile_lease_until = ${options.leaseUntil}
     WHERE id = ${options.linkId}
       AND (reconcile_lease_until IS NULL OR reconcile_lease_until <= ${options.now})
    RETURNING id, sandbox, publisher_key_encrypted, create_time`;
  const row = rows[0];
  return row === undefined ? undefined : toTask(row, options.leaseUntil);
}

/** Extends the lease while this replica still holds it; false when it ran out or was taken. */
export async function renewLinkLease(
  db: Db,
  options: { linkId: string; heldUntil: Date; now: Date; leaseUntil: Date },
): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE distributor_links SET reconcile_lease_until = ${options.leaseUntil}
     WHERE id = ${options.linkId} AND reconcile_lease_until = ${options.heldUntil}
       AND reconcile_lease_until > ${options.now}`;
  return renewed === 1;
}

/** Gives the lease back; a pass that drained the report also records when it ended. */
export async function releaseLinkLease(
  db: Db,
  options: { linkId: string; heldUntil: Date; now: Date; drained: boolean },
): Promise<void> {
  await db.$executeRaw`
    UPDATE distributor_links
       SET reconcile_lease_until = NULL,
           reconcile_time = CASE WHEN ${options.drained} THEN ${options.now}::timestamptz ELSE reconcile_time END
     WHERE id = ${options.linkId} AND reconcile_lease_until = ${options.heldUntil}`;
}
