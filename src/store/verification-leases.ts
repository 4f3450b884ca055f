import { Prisma } from "../../gen/prisma/client.js";
import type { InTransaction } from "./db-client.js";
import { takeDueLeases } from "./leases.js";
import type { Db } from "./open-database.js";

// The background verification's share of the store (spec 3.2). Replicas lease campaigns in
// VERIFYING (leases.ts, "verify"), so each campaign is verified by one at a time; a lease that
// outlives a crashed replica runs out and the campaign is picked up again.

export interface VerificationTask {
  campaignId: string;
  appId: bigint;
  linkId: string;
  publisherKeyEncrypted: Uint8Array;
  /** The lease this replica holds: its outcome is written only while it still holds it. */
  leaseUntil: Date;
}

export async function leaseVerifications(
  db: Db,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<VerificationTask[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const leased = await takeDueLeases<Omit<VerificationTask, "leaseUntil">>(db, "verify", {
    now: options.now,
    until: leaseUntil,
    due: Prisma.sql`state = 'VERIFYING'`,
    orderBy: Prisma.sql`update_time, id`,
    limit: options.limit,
    // The link's key with it (a campaign's link is never deleted under it: ON DELETE RESTRICT).
    returning: Prisma.sql`id AS "campaignId", app_id AS "appId", link_id AS "linkId",
      (SELECT publisher_key_encrypted FROM distributor_links d WHERE d.id = campaigns.link_id) AS "publisherKeyEncrypted"`,
  });
  return leased.map((task) => ({ ...task, appId: BigInt(task.appId), leaseUntil }));
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
