import type { InTransaction } from "./db-client.js";
import type { Db } from "./open-database.js";

// The background verification's share of the store (spec 3.2). Several replicas lease
// campaigns in VERIFYING with FOR UPDATE SKIP LOCKED, so each campaign is verified by one at
// a time; a lease that outlives a crashed replica expires and the campaign is picked up again.

export interface VerificationTask {
  campaignId: string;
  appId: bigint;
  linkId: string;
  publisherKeyEncrypted: Uint8Array;
  /** The lease this replica holds: its outcome is written only while it still holds it. */
  leaseUntil: Date;
}

interface LeasedRow {
  id: string;
  app_id: bigint;
  link_id: string;
}

export async function leaseVerifications(
  db: Db,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<VerificationTask[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const leased = await db.$queryRaw<LeasedRow[]>`
    UPDATE campaigns SET verify_lease_until = ${leaseUntil}
     WHERE id IN (
       SELECT id FROM campaigns
        WHERE state = 'VERIFYING' AND (verify_lease_until IS NULL OR verify_lease_until < ${options.now})
        ORDER BY update_time, id
        LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, app_id, link_id`;
  if (leased.length === 0) return [];
  const links = await db.distributorLink.findMany({
    where: { id: { in: leased.map((row) => row.link_id) } },
    select: { id: true, publisherKeyEncrypted: true },
  });
  const keys = new Map(links.map((link) => [link.id, link.publisherKeyEncrypted]));
  return leased.flatMap((row) => {
    const publisherKeyEncrypted = keys.get(row.link_id);
    if (publisherKeyEncrypted === undefined) return [];
    return [{ campaignId: row.id, appId: BigInt(row.app_id), linkId: row.link_id, publisherKeyEncrypted, leaseUntil }];
  });
}

export interface VerificationRecord {
  state: "VERIFIED" | "NEEDS_REVIEW";
  keyOwnsApp: boolean;
  removedFromSale: boolean;
  endingAnnouncement: string;
  explanation: string;
}

/** Writes the outcome while this replica still holds the lease and the campaign still waits for it. */
export function recordVerification(
  db: Db,
  task: VerificationTask,
  options: { record: VerificationRecord; now: Date; inTransaction?: InTransaction },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const written = await tx.campaign.updateMany({
      where: { id: task.campaignId, state: "VERIFYING", verifyLeaseUntil: task.leaseUntil },
      data: {
        ...options.record,
        verifyTime: options.now,
        verifyLeaseUntil: null,
        version: { increment: 1 },
        updateTime: options.now,
      },
    });
    if (written.count !== 1) return false;
    await options.inTransaction?.(tx);
    return true;
  });
}

/**
 * The platform did not answer: the campaign stays VERIFYING for the next attempt, the reason
 * visible to the studio; the lease is given back so the next pass takes it.
 */
export async function postponeVerification(
  db: Db,
  task: VerificationTask,
  options: { explanation: string; now: Date },
): Promise<void> {
  await db.campaign.updateMany({
    where: { id: task.campaignId, state: "VERIFYING", verifyLeaseUntil: task.leaseUntil },
    data: {
      explanation: options.explanation,
      verifyLeaseUntil: null,
      version: { increment: 1 },
      updateTime: options.now,
    },
  });
}
