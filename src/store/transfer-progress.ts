import type { TransferItemState, TransferState } from "../../gen/prisma/enums.js";
import type { DbClient, InTransaction } from "./db-client.js";
import type { Db } from "./open-database.js";

// Working a transfer item by item under a lease, safe with several replicas: a lease is taken
// with FOR UPDATE SKIP LOCKED, renewed and released only by whoever holds it (its expiry time
// is the holder's token), and every item moves forward by a write conditional on its state.

export interface Lease {
  transferId: string;
  until: Date;
}

/** Takes the lease of one RUNNING transfer nobody holds (or whose holder's lease ran out). */
export async function claimTransfer(db: Db, options: { now: Date; leaseMs: number }): Promise<Lease | undefined> {
  const until = new Date(options.now.getTime() + options.leaseMs);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE transfers SET lease_until = ${until}
     WHERE id = (SELECT id FROM transfers
                  WHERE state = 'RUNNING' AND (lease_until IS NULL OR lease_until < ${options.now})
                  ORDER BY create_time, id
                  LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  const id = rows[0]?.id;
  return id === undefined ? undefined : { transferId: id, until };
}

/** Extends a lease still held; undefined when it was lost (expired and taken by another). */
export async function renewLease(
  db: DbClient,
  lease: Lease,
  options: { now: Date; leaseMs: number },
): Promise<Lease | undefined> {
  const until = new Date(options.now.getTime() + options.leaseMs);
  const renewed = await db.transfer.updateMany({
    where: { id: lease.transferId, leaseUntil: lease.until },
    data: { leaseUntil: until },
  });
  return renewed.count === 1 ? { transferId: lease.transferId, until } : undefined;
}

export async function releaseLease(db: DbClient, lease: Lease): Promise<void> {
  await db.transfer.updateMany({
    where: { id: lease.transferId, leaseUntil: lease.until },
    data: { leaseUntil: null },
  });
}

/** The first item not yet moved, in the order the studio gave. */
export async function nextPendingItem(db: DbClient, transferId: string): Promise<string | undefined> {
  const item = await db.transferItem.findFirst({
    where: { transferId, state: "PENDING" },
    orderBy: { position: "asc" },
    select: { resourceId: true },
  });
  return item?.resourceId;
}

/** Moves an item forward only from the states given; false when it was not in one of them. */
export async function markItem(
  db: DbClient,
  options: {
    transferId: string;
    resourceId: string;
    from: readonly TransferItemState[];
    to: TransferItemState;
    detail: string;
  },
): Promise<boolean> {
  const written = await db.transferItem.updateMany({
    where: { transferId: options.transferId, resourceId: options.resourceId, state: { in: [...options.from] } },
    data: { state: options.to, detail: options.detail },
  });
  return written.count === 1;
}

/**
 * Derives the transfer's state from its items: items to move keep it RUNNING; else one waiting
 * for an acknowledgement makes it AWAITING_ACKNOWLEDGEMENT; else a failed item fails it; else it
 * SUCCEEDED, and the campaign is ready in the same transaction (spec 3.2: purchases are no
 * longer CAMPAIGN_NOT_READY). A transfer already final stays as it is.
 */
export function settleTransfer(
  db: Db,
  options: {
    transferId: string;
    now: Date;
    /** Run when the transfer's state changed, after it was written (its webhook event). */
    inTransaction?: InTransaction<TransferState>;
  },
): Promise<TransferState | undefined> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ state: TransferState; campaign_id: string }[]>`
      SELECT state::text AS state, campaign_id FROM transfers WHERE id = ${options.transferId} FOR UPDATE`;
    const transfer = locked[0];
    if (!transfer) return undefined;
    if (transfer.state === "SUCCEEDED" || transfer.state === "FAILED") return transfer.state;
    const items = await tx.transferItem.findMany({
      where: { transferId: options.transferId },
      select: { state: true, resourceId: true, detail: true },
    });
    const has = (state: TransferItemState) => items.some((item) => item.state === state);
    const failed = items.filter((item) => item.state === "FAILED");
    const state: TransferState = has("PENDING")
      ? "RUNNING"
      : has("AWAITING_ACKNOWLEDGEMENT")
        ? "AWAITING_ACKNOWLEDGEMENT"
        : failed.length > 0
          ? "FAILED"
          : "SUCCEEDED";
    const final = state === "SUCCEEDED" || state === "FAILED";
    await tx.transfer.update({
      where: { id: options.transferId },
      data: {
        state,
        error: failed.map((item) => `${item.resourceId}: ${item.detail}`).join("; "),
        ...(final ? { endTime: options.now, leaseUntil: null } : {}),
      },
    });
    if (state === "SUCCEEDED") {
      await tx.campaign.updateMany({
        where: { id: transfer.campaign_id, readyTime: null },
        data: { readyTime: options.now, version: { increment: 1 }, updateTime: options.now },
      });
    }
    if (state !== transfer.state) await options.inTransaction?.(tx, state);
    return state;
  });
}
