import type { CampaignState, LinkState } from "../domain/availability.js";
import type { PurchaseState } from "../domain/purchase-state.js";
import type { Db } from "./open-database.js";
import { endPurchaseIn, releaseReservation } from "./purchases.js";

// What begin reads and writes (spec 4.3). The write that opens a purchase is one transaction:
// the requestId claimed, the credit reserved under the outstanding limit, the purchase written
// INITIATED with its order id, all before the platform is called (DESIGN 3).

export interface BeginFacts {
  campaignId: string;
  state: CampaignState;
  ready: boolean;
  appId: bigint;
  link: {
    id: string;
    state: LinkState;
    sandbox: boolean;
    publisherKeyEncrypted: Uint8Array;
    outstandingNanos: bigint;
    reservedNanos: bigint;
    outstandingLimitNanos: bigint;
  };
  /** Undefined when the campaign has no offer with this id. */
  offer: { id: string; active: boolean; displayName: string; priceNanos: bigint; creditNanos: bigint } | undefined;
}

export async function findBeginFacts(db: Db, campaignKey: string, offerId: string): Promise<BeginFacts | undefined> {
  const row = await db.campaign.findUnique({
    where: { campaignKey },
    select: {
      id: true,
      state: true,
      readyTime: true,
      appId: true,
      link: {
        select: {
          id: true,
          state: true,
          sandbox: true,
          publisherKeyEncrypted: true,
          outstandingNanos: true,
          reservedNanos: true,
          outstandingLimitNanos: true,
        },
      },
      offers: {
        where: { id: offerId },
        select: { id: true, active: true, displayName: true, priceNanos: true, creditNanos: true },
      },
    },
  });
  if (!row) return undefined;
  return {
    campaignId: row.id,
    state: row.state,
    ready: row.readyTime !== null,
    appId: row.appId,
    link: row.link,
    offer: row.offers[0],
  };
}

export interface PurchaseRequestRecord {
  playerId: string;
  purchaseId: string | null;
  refused: boolean;
  /** The purchase's state and whether the platform confirmed its order; undefined without a purchase. */
  purchase: { state: PurchaseState; orderId: bigint; confirmed: boolean; createTime: Date } | undefined;
}

export async function findPurchaseRequest(
  db: Db,
  campaignId: string,
  requestId: string,
): Promise<PurchaseRequestRecord | undefined> {
  const row = await db.purchaseRequest.findUnique({
    where: { campaignId_requestId: { campaignId, requestId } },
    select: {
      playerId: true,
      purchaseId: true,
      refused: true,
      purchase: { select: { state: true, orderId: true, transId: true, createTime: true } },
    },
  });
  if (!row) return undefined;
  const purchase = row.purchase
    ? {
        state: row.purchase.state,
        orderId: row.purchase.orderId,
        confirmed: row.purchase.transId !== null,
        createTime: row.purchase.createTime,
      }
    : undefined;
  return { playerId: row.playerId, purchaseId: row.purchaseId, refused: row.refused, purchase };
}

export interface OpenPurchaseInput {
  purchaseId: string;
  campaignId: string;
  offerId: string;
  linkId: string;
  orderId: bigint;
  playerId: string;
  priceNanos: bigint;
  creditNanos: bigint;
  sandbox: boolean;
  language: string;
  requestId: string | undefined;
  now: Date;
}

export type OpenPurchaseResult = "opened" | "request-known" | "limit-reached" | "offer-inactive";

class Rollback extends Error {}

/**
 * Claims the requestId (a concurrent begin with the same one waits on the unique key until this
 * commits, then finds it known), reserves the credit atomically against the link's outstanding
 * limit (exactly at the limit is allowed; sandbox links reserve nothing) and writes the purchase
 * INITIATED. Nothing is written when the limit would be exceeded.
 */
export async function openPurchase(db: Db, input: OpenPurchaseInput): Promise<OpenPurchaseResult> {
  try {
    return await db.$transaction(async (tx) => {
      // The offer is held (FOR KEY SHARE, as the purchase's foreign key would) until this
      // commits: a concurrent DeleteOffer waits and then sees the purchase (spec 3.3), or
      // deleted or deactivated it first and nothing is written here.
      const offer = await tx.$queryRaw<{ active: boolean }[]>`
        SELECT active FROM offers WHERE id = ${input.offerId} AND campaign_id = ${input.campaignId} FOR KEY SHARE`;
      if (!offer[0]?.active) return "offer-inactive";
      if (input.requestId !== undefined) {
        const claimed = await tx.$executeRaw`
          INSERT INTO purchase_requests (campaign_id, request_id, player_id, create_time)
          VALUES (${input.campaignId}, ${input.requestId}, ${input.playerId}, ${input.now})
          ON CONFLICT DO NOTHING`;
        if (claimed === 0) return "request-known";
      }
      if (!input.sandbox) {
        const reserved = await tx.$executeRaw`
          UPDATE distributor_links SET reserved_nanos = reserved_nanos + ${input.creditNanos}
           WHERE id = ${input.linkId}
             AND outstanding_nanos + reserved_nanos + ${input.creditNanos} <= outstanding_limit_nanos`;
        if (reserved === 0) throw new Rollback();
      }
      await tx.purchase.create({
        data: {
          id: input.purchaseId,
          campaignId: input.campaignId,
          offerId: input.offerId,
          linkId: input.linkId,
          orderId: input.orderId,
          playerId: input.playerId,
          priceNanos: input.priceNanos,
          creditNanos: input.creditNanos,
          sandbox: input.sandbox,
          language: input.language,
          createTime: input.now,
          updateTime: input.now,
        },
      });
      if (input.requestId !== undefined) {
        await tx.purchaseRequest.update({
          where: { campaignId_requestId: { campaignId: input.campaignId, requestId: input.requestId } },
          data: { purchaseId: input.purchaseId },
        });
      }
      return "opened" as const;
    });
  } catch (error) {
    if (error instanceof Rollback) return "limit-reached";
    throw error;
  }
}

/**
 * The platform refused to open the order (spec 3.1): the purchase never existed, so it is
 * removed and its reservation released; the requestId remembers the refusal.
 */
export function forgetRefusedOrder(
  db: Db,
  input: { purchaseId: string; campaignId: string; requestId: string | undefined },
): Promise<void> {
  return db.$transaction(async (tx) => {
    if (input.requestId !== undefined) {
      await tx.purchaseRequest.update({
        where: { campaignId_requestId: { campaignId: input.campaignId, requestId: input.requestId } },
        data: { purchaseId: null, refused: true },
      });
    }
    const rows = await tx.$queryRaw<{ link_id: string; credit_nanos: bigint; sandbox: boolean }[]>`
      DELETE FROM purchases WHERE id = ${input.purchaseId} AND state = 'INITIATED' AND trans_id IS NULL
      RETURNING link_id, credit_nanos, sandbox`;
    const row = rows[0];
    if (row && !row.sandbox) await releaseReservation(tx, row.link_id, BigInt(row.credit_nanos));
  });
}

/**
 * A begin whose order never reached the platform (InitTxn unanswered, and QueryTxn later does
 * not know the order): the attempt ends FAILED with its reservation released, and the requestId
 * is freed so the retry opens a fresh order.
 */
export function abandonUnopenedAttempt(
  db: Db,
  input: { purchaseId: string; campaignId: string; requestId: string; now: Date },
): Promise<void> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`
      DELETE FROM purchase_requests
       WHERE campaign_id = ${input.campaignId} AND request_id = ${input.requestId} AND purchase_id = ${input.purchaseId}`;
    // Only while still unconfirmed: a concurrent QueryTxn that found the order wins (spec 3.1).
    await endPurchaseIn(tx, input.purchaseId, "FAILED", input.now, "unconfirmed");
  });
}
