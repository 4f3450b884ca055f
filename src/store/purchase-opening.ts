import { Prisma } from "../../gen/prisma/client.js";
import type { CampaignState, LinkState } from "../domain/availability.js";
import type { PurchaseState } from "../domain/purchase-state.js";
import { violates } from "./constraint-violation.js";
import { type Driven, queryRows } from "./direct-queries.js";
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
  /** The begin's requestId is recorded for the campaign already (false without one). */
  requestKnown: boolean;
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

interface BeginFactsRow {
  id: string;
  state: CampaignState;
  ready: boolean;
  app_id: Driven<bigint>;
  link_id: string;
  link_state: LinkState;
  sandbox: boolean;
  publisher_key_encrypted: Uint8Array;
  outstanding_nanos: Driven<bigint>;
  reserved_nanos: Driven<bigint>;
  outstanding_limit_nanos: Driven<bigint>;
  offer_id: string | null;
  offer_active: boolean | null;
  offer_display_name: string | null;
  offer_price_nanos: Driven<bigint> | null;
  offer_credit_nanos: Driven<bigint> | null;
  request_known: boolean;
}

/**
 * Everything a begin decides on, in one round trip: the campaign, its link, the
 * offer and whether `requestId` (when given) is known for the campaign already.
 */
export async function findBeginFacts(
  db: Db,
  campaignKey: string,
  offerId: string,
  requestId?: string,
): Promise<BeginFacts | undefined> {
  const rows = await queryRows<BeginFactsRow>(
    db,
    Prisma.sql`
    SELECT c.id, c.state::text AS state, c.ready_time IS NOT NULL AS ready, c.app_id,
           d.id AS link_id, d.state::text AS link_state, d.sandbox, d.publisher_key_encrypted,
           d.outstanding_nanos, d.reserved_nanos, d.outstanding_limit_nanos,
           o.id AS offer_id, o.active AS offer_active, o.display_name AS offer_display_name,
           o.price_nanos AS offer_price_nanos, o.credit_nanos AS offer_credit_nanos,
           EXISTS (SELECT 1 FROM purchase_requests r
                    WHERE r.campaign_id = c.id AND r.request_id = ${requestId ?? null}::text) AS request_known
      FROM campaigns c
      JOIN distributor_links d ON d.id = c.link_id
      LEFT JOIN offers o ON o.campaign_id = c.id AND o.id = ${offerId}
     WHERE c.campaign_key = ${campaignKey}`,
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    campaignId: row.id,
    state: row.state,
    ready: row.ready,
    appId: BigInt(row.app_id),
    requestKnown: row.request_known,
    link: {
      id: row.link_id,
      state: row.link_state,
      sandbox: row.sandbox,
      publisherKeyEncrypted: new Uint8Array(row.publisher_key_encrypted),
      outstandingNanos: BigInt(row.outstanding_nanos),
      reservedNanos: BigInt(row.reserved_nanos),
      outstandingLimitNanos: BigInt(row.outstanding_limit_nanos),
    },
    offer:
      row.offer_id === null
        ? undefined
        : {
            id: row.offer_id,
            active: row.offer_active === true,
            displayName: row.offer_display_name ?? "",
            priceNanos: BigInt(row.offer_price_nanos ?? 0n),
            creditNanos: BigInt(row.offer_credit_nanos ?? 0n),
          },
  };
}

export interface PurchaseRequestRecord {
  playerId: string;
  purchaseId: string | null;
  refused: boolean;
  /**
   * The purchase's state and whether a caller recorded the platform's transaction id (the
   * platform has the order); undefined without a purchase.
   */
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

/**
 * Claims the requestId, reserves the credit atomically against the link's outstanding limit as
 * exceedsOutstandingLimit reads it (exactly at the limit is allowed; an outstanding below zero
 * counts as zero; sandbox links reserve nothing; the sum is taken as numeric, so one past int64
 * is over any limit, never a 500: docs/api.md "Money") and writes the purchase INITIATED, in one
 * statement (one round trip instead of seven), so all of it or none is written:
 * - the offer is held (FOR KEY SHARE, as the purchase's foreign key would) until the statement
 *   ends: a concurrent DeleteOffer waits and then sees the purchase (spec 3.3), or deleted or
 *   deactivated it first and nothing is written;
 * - the requestId is claimed with the purchase; a concurrent begin with the same one waits on
 *   the unique key until this commits, then fails on it, and nothing of its own is written.
 */
export async function openPurchase(db: Db, input: OpenPurchaseInput): Promise<OpenPurchaseResult> {
  const requestId = input.requestId ?? null;
  let rows: { offer_active: boolean | null; opened: boolean }[];
  try {
    rows = await queryRows(
      db,
      Prisma.sql`
      WITH offer AS (
        SELECT active FROM offers WHERE id = ${input.offerId} AND campaign_id = ${input.campaignId} FOR KEY SHARE
      ), reserved AS (
        UPDATE distributor_links SET reserved_nanos = reserved_nanos + ${input.creditNanos}
         WHERE id = ${input.linkId} AND NOT ${input.sandbox} AND (SELECT active FROM offer)
           AND GREATEST(outstanding_nanos, 0)::numeric + reserved_nanos + ${input.creditNanos} <= outstanding_limit_nanos
        RETURNING id
      ), opened AS (
        INSERT INTO purchases (id, campaign_id, offer_id, link_id, order_id, player_id, state, price_nanos,
                               credit_nanos, sandbox, language, create_time, update_time)
        SELECT ${input.purchaseId}, ${input.campaignId}, ${input.offerId}, ${input.linkId}, ${input.orderId},
               ${input.playerId}, 'INITIATED', ${input.priceNanos}, ${input.creditNanos}, ${input.sandbox},
               ${input.language}, ${input.now}, ${input.now}
         WHERE (SELECT active FROM offer) AND (${input.sandbox} OR EXISTS (SELECT 1 FROM reserved))
        RETURNING id
      ), claimed AS (
        INSERT INTO purchase_requests (campaign_id, request_id, player_id, purchase_id, create_time)
        SELECT ${input.campaignId}, ${requestId}::text, ${input.playerId}, id, ${input.now}
          FROM opened WHERE ${requestId}::text IS NOT NULL
        RETURNING 1
      )
      SELECT (SELECT active FROM offer) AS offer_active, EXISTS (SELECT 1 FROM opened) AS opened`,
    );
  } catch (error) {
    // The purchase's own keys are fresh random ids: a duplicate here is the requestId's.
    if (requestId !== null && violates(error, "unique")) return "request-known";
    throw error;
  }
  const row = rows[0];
  if (!row?.offer_active) return "offer-inactive";
  if (row.opened) return "opened";
  // A concurrent begin with the same requestId may have taken the last of the limit: its
  // reservation (and so its claim) committed before this statement's reservation, which waited
  // on the link's row, found no room. Then this is a retry of that begin, not a new one.
  if (requestId !== null && (await findPurchaseRequest(db, input.campaignId, requestId))) return "request-known";
  return "limit-reached";
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
 * is freed so the retry opens a fresh order. True when this call ended the purchase.
 */
export function abandonUnopenedAttempt(
  db: Db,
  input: { purchaseId: string; campaignId: string; requestId: string; now: Date },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`
      DELETE FROM purchase_requests
       WHERE campaign_id = ${input.campaignId} AND request_id = ${input.requestId} AND purchase_id = ${input.purchaseId}`;
    // Only while still unconfirmed: a concurrent QueryTxn that found the order wins (spec 3.1).
    return endPurchaseIn(tx, input.purchaseId, "FAILED", input.now, "unconfirmed");
  });
}
