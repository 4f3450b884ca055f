import type { CampaignState, LinkState } from "../domain/availability.js";
import { type PurchaseChannel, type PurchaseState, START_STATE } from "../domain/purchase-state.js";
import { violates } from "./constraint-violation.js";
import type { Db } from "./open-database.js";
import { isStarted, stateValue } from "./purchase-guards.js";
import { RELEASED } from "./purchases.js";

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
  app_id: bigint;
  link_id: string;
  link_state: LinkState;
  sandbox: boolean;
  publisher_key_encrypted: Uint8Array;
  outstanding_nanos: bigint;
  reserved_nanos: bigint;
  outstanding_limit_nanos: bigint;
  offer_id: string | null;
  offer_active: boolean | null;
  offer_display_name: string | null;
  offer_price_nanos: bigint | null;
  offer_credit_nanos: bigint | null;
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
  const [row] = await db.$queryRaw<BeginFactsRow[]>`
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
     WHERE c.campaign_key = ${campaignKey}`;
  if (!row) return undefined;
  return {
    campaignId: row.id,
    state: row.state,
    ready: row.ready,
    appId: row.app_id,
    requestKnown: row.request_known,
    link: {
      id: row.link_id,
      state: row.link_state,
      sandbox: row.sandbox,
      publisherKeyEncrypted: row.publisher_key_encrypted,
      outstandingNanos: row.outstanding_nanos,
      reservedNanos: row.reserved_nanos,
      outstandingLimitNanos: row.outstanding_limit_nanos,
    },
    offer:
      row.offer_id === null
        ? undefined
        : {
            id: row.offer_id,
            active: row.offer_active === true,
            displayName: row.offer_display_name ?? "",
            priceNanos: row.offer_price_nanos ?? 0n,
            creditNanos: row.offer_credit_nanos ?? 0n,
          },
  };
}

/** What the first begin with a requestId left (spec 4.3 rule 3). */
export interface PurchaseRequestRecord {
  playerId: string;
  /** The platform refused its order; then no purchase was kept. */
  refused: boolean;
  /** Its purchase; undefined when refused. */
  purchase:
    | {
        id: string;
        state: PurchaseState;
        orderId: bigint;
        /** Recorded when the order was opened (recordInitTxnEnds, recordTransId). */
        transId: string | null;
        /** When the begin's InitTxn ended (answered or not); null while it runs or if its process died. */
        initTxnEndTime: Date | null;
        createTime: Date;
      }
    | undefined;
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
      refused: true,
      purchase: {
        select: { id: true, state: true, orderId: true, transId: true, initTxnEndTime: true, createTime: true },
      },
    },
  });
  return row ? { playerId: row.playerId, refused: row.refused, purchase: row.purchase ?? undefined } : undefined;
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
  /** Where the purchase is made: in the game, or on the campaign's public page. */
  channel: PurchaseChannel;
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
    rows = await db.$queryRaw`
      WITH offer AS (
        SELECT active FROM offers WHERE id = ${input.offerId} AND campaign_id = ${input.campaignId} FOR KEY SHARE
      ), reserved AS (
        UPDATE distributor_links SET reserved_nanos = reserved_nanos + ${input.creditNanos}
         WHERE id = ${input.linkId} AND NOT ${input.sandbox} AND (SELECT active FROM offer)
           AND GREATEST(outstanding_nanos, 0)::numeric + reserved_nanos + ${input.creditNanos} <= outstanding_limit_nanos
        RETURNING id
      ), opened AS (
        INSERT INTO purchases (id, campaign_id, offer_id, link_id, order_id, player_id, state, channel, price_nanos,
                               credit_nanos, sandbox, language, create_time, update_time)
        SELECT ${input.purchaseId}, ${input.campaignId}, ${input.offerId}, ${input.linkId}, ${input.orderId},
               ${input.playerId}, ${stateValue(START_STATE)}, ${input.channel}::"PurchaseChannel", ${input.priceNanos},
               ${input.creditNanos}, ${input.sandbox}, ${input.language}, ${input.now}, ${input.now}
         WHERE (SELECT active FROM offer) AND (${input.sandbox} OR EXISTS (SELECT 1 FROM reserved))
        RETURNING id
      ), claimed AS (
        INSERT INTO purchase_requests (campaign_id, request_id, player_id, purchase_id, create_time)
        SELECT ${input.campaignId}, ${requestId}::text, ${input.playerId}, id, ${input.now}
          FROM opened WHERE ${requestId}::text IS NOT NULL
        RETURNING 1
      )
      SELECT (SELECT active FROM offer) AS offer_active, EXISTS (SELECT 1 FROM opened) AS opened`;
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
 * removed and its reservation given back; the requestId remembers the refusal, so a begin
 * retried with it is refused again. One transaction: the request stops naming the purchase
 * before the purchase goes.
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
    await tx.$executeRaw`
      WITH ended AS (
        DELETE FROM purchases WHERE id = ${input.purchaseId} AND ${isStarted()} AND trans_id IS NULL
        RETURNING link_id, credit_nanos, sandbox
      ), ${RELEASED}
      SELECT 1`;
  });
}
