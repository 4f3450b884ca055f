import type { Db } from "./open-database.js";
import { isOpen } from "./purchase-guards.js";

export interface LeaseOptions {
  now: Date;
  /** Only purchases begun at or before this are due (the game had its chance to complete). */
  dueBefore: Date;
  /** The lease: no other replica takes these purchases until then; also when one is next looked at. */
  leaseUntil: Date;
  limit: number;
}

/**
 * Takes a batch of unsettled purchases for one sweeper replica (DESIGN 2, src/jobs/job.ts):
 * rows another replica is leasing right now are skipped (`FOR UPDATE SKIP LOCKED`), and a
 * purchase's lease keeps every replica off it until it runs out. The credit itself stays
 * conditional, so a lease that runs out mid-settlement still credits once.
 */
export async function leaseDuePurchases(db: Db, options: LeaseOptions): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE purchases SET lease_until = ${options.leaseUntil}
     WHERE id IN (
       SELECT id FROM purchases
        WHERE ${isOpen()}
          AND create_time <= ${options.dueBefore}
          AND (lease_until IS NULL OR lease_until <= ${options.now})
        ORDER BY create_time
        LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return rows.map((row) => row.id);
}

/**
 * Extends one purchase's lease just before the sweeper works it, only while this replica still
 * holds it (its lease is the one it took, `heldUntil`, and has not run out at `now`): a batch
 * slowed by the platform never works a purchase whose lease another replica has since taken.
 */
export async function renewPurchaseLease(
  db: Db,
  options: { purchaseId: string; heldUntil: Date; now: Date; leaseUntil: Date },
): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE purchases SET lease_until = ${options.leaseUntil}
     WHERE id = ${options.purchaseId} AND lease_until = ${options.heldUntil} AND lease_until > ${options.now}`;
  return renewed === 1;
}
