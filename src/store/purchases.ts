import { randomUUID } from "node:crypto";
import { Prisma } from "../../gen/prisma/client.js";
import type { PurchaseState } from "../domain/purchase-state.js";
import type { DbClient } from "./db-client.js";
import type { Db } from "./open-database.js";

// Purchases and the money they move (DESIGN 3 "Outstanding", "Settlement"). Every change is
// conditional on the purchase's previous state, so concurrent completes, sweepers and replicas
// move money at most once; no transaction here ever waits on the platform.

/** A purchase with what settling it needs. */
export interface PurchaseRecord {
  id: string;
  campaignId: string;
  campaignKey: string;
  appId: bigint;
  linkId: string;
  orderId: bigint;
  /** The platform's transaction id; null until the platform confirmed the order exists. */
  transId: string | null;
  playerId: string;
  state: PurchaseState;
  creditNanos: bigint;
  sandbox: boolean;
  createTime: Date;
  publisherKeyEncrypted: Uint8Array;
}

export async function findPurchase(db: DbClient, purchaseId: string): Promise<PurchaseRecord | undefined> {
  const row = await db.purchase.findUnique({
    where: { id: purchaseId },
    include: {
      campaign: { select: { campaignKey: true, appId: true } },
      link: { select: { publisherKeyEncrypted: true } },
    },
  });
  if (!row) return undefined;
  return {
    id: row.id,
    campaignId: row.campaignId,
    campaignKey: row.campaign.campaignKey,
    appId: row.campaign.appId,
    linkId: row.linkId,
    orderId: row.orderId,
    transId: row.transId,
    playerId: row.playerId,
    state: row.state,
    creditNanos: row.creditNanos,
    sandbox: row.sandbox,
    createTime: row.createTime,
    publisherKeyEncrypted: row.link.publisherKeyEncrypted,
  };
}

/** Records the platform's transaction id once the platform confirmed the order. */
export async function recordTransId(db: DbClient, purchaseId: string, transId: string): Promise<void> {
  await db.$executeRaw`UPDATE purchases SET trans_id = ${transId} WHERE id = ${purchaseId} AND trans_id IS NULL`;
}

/** INITIATED -> AUTHORIZED: the platform approved the order, it is not settled yet. */
export async function markAuthorized(db: DbClient, purchaseId: string, now: Date): Promise<boolean> {
  const moved = await db.$executeRaw`
    UPDATE purchases SET state = 'AUTHORIZED', update_time = ${now}
     WHERE id = ${purchaseId} AND state = 'INITIATED'`;
  return moved === 1;
}

/**
 * Credits a purchase exactly once, in one transaction (DESIGN 3): the purchase becomes CREDITED
 * only from a non-final state; then (not in sandbox) a PLAYER_TOP_UP ledger entry on the
 * campaign's project (unique per purchase), the project's balance up, and the link's
 * outstanding up and reserved down. Returns false when another caller got there first.
 */
export function creditPurchase(db: Db, purchaseId: string, now: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ link_id: string; credit_nanos: bigint; sandbox: boolean; project_id: string }[]>`
      UPDATE purchases p SET state = 'CREDITED', credit_time = ${now}, update_time = ${now}
        FROM campaigns c
       WHERE p.id = ${purchaseId} AND p.state IN ('INITIATED', 'AUTHORIZED') AND c.id = p.campaign_id
      RETURNING p.link_id, p.credit_nanos, p.sandbox, c.project_id`;
    const row = rows[0];
    if (!row) return false;
    // Spec 1.6 and 8: a sandbox purchase ends CREDITED but moves no money.
    if (row.sandbox) return true;
    const credit = BigInt(row.credit_nanos);
    await tx.ledgerEntry.create({
      data: {
        id: randomUUID(),
        projectId: row.project_id,
        type: "PLAYER_TOP_UP",
        amountNanos: credit,
        purchaseId,
        createTime: now,
      },
    });
    await tx.$executeRaw`UPDATE projects SET balance_nanos = balance_nanos + ${credit} WHERE id = ${row.project_id}`;
    await tx.$executeRaw`
      UPDATE distributor_links
         SET outstanding_nanos = outstanding_nanos + ${credit}, reserved_nanos = reserved_nanos - ${credit}
       WHERE id = ${row.link_id}`;
    return true;
  });
}

/**
 * What a decision to end a purchase was based on; the row must still say so when it ends, or a
 * concurrent settlement that already moved it on (e.g. to AUTHORIZED, about to capture) wins:
 * - "open": any non-final state (the platform itself says the order failed or was declined);
 * - "initiated": the platform said Init, so only a purchase nobody has seen approved (spec 3.1);
 * - "unconfirmed": the platform does not know the order, so only while no trans_id was recorded.
 */
export type EndGuard = "open" | "initiated" | "unconfirmed";

const END_GUARDS: Record<EndGuard, Prisma.Sql> = {
  open: Prisma.sql`state IN ('INITIATED', 'AUTHORIZED')`,
  initiated: Prisma.sql`state = 'INITIATED'`,
  unconfirmed: Prisma.sql`state = 'INITIATED' AND trans_id IS NULL`,
};

/**
 * Ends a purchase without payment (CANCELLED or FAILED) and releases its reservation, in one
 * transaction, only while the row is as `guard` says. Returns false when it was not.
 */
export function endPurchase(
  db: Db,
  purchaseId: string,
  to: "CANCELLED" | "FAILED",
  now: Date,
  guard: EndGuard = "open",
): Promise<boolean> {
  return db.$transaction((tx) => endPurchaseIn(tx, purchaseId, to, now, guard));
}

export async function endPurchaseIn(
  tx: Prisma.TransactionClient,
  purchaseId: string,
  to: "CANCELLED" | "FAILED",
  now: Date,
  guard: EndGuard = "open",
): Promise<boolean> {
  const rows = await tx.$queryRaw<{ link_id: string; credit_nanos: bigint; sandbox: boolean }[]>`
    UPDATE purchases SET state = ${to}::"PurchaseState", update_time = ${now}
     WHERE id = ${purchaseId} AND ${END_GUARDS[guard]}
    RETURNING link_id, credit_nanos, sandbox`;
  const row = rows[0];
  if (!row) return false;
  if (!row.sandbox) await releaseReservation(tx, row.link_id, BigInt(row.credit_nanos));
  return true;
}

export async function releaseReservation(tx: DbClient, linkId: string, creditNanos: bigint): Promise<void> {
  await tx.$executeRaw`UPDATE distributor_links SET reserved_nanos = reserved_nanos - ${creditNanos} WHERE id = ${linkId}`;
}

/** The purchase's current state, or undefined when it does not exist. */
export async function readPurchaseState(db: DbClient, purchaseId: string): Promise<PurchaseState | undefined> {
  const row = await db.purchase.findUnique({ where: { id: purchaseId }, select: { state: true } });
  return row?.state;
}
