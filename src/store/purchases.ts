import { Prisma } from "../../gen/prisma/client.js";
import type { PurchaseChannel, PurchaseState, UnpaidEnd } from "../domain/purchase-state.js";
import { type ReportRow, reversedCredit } from "../domain/reversal.js";
import type { DbClient, InTransaction } from "./db-client.js";
import type { Db } from "./open-database.js";
import type { PublicCampaignFacts } from "./public-campaigns.js";
import { creditOnce } from "./purchase-credit.js";
import { isStarted, mayMoveInto, stateValue } from "./purchase-guards.js";
import { type FindingOf, recordFinding, recordReversal } from "./reconciliation.js";
import { UNHURRIED_COMMIT } from "./unhurried-commit.js";

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
  /**
   * The platform's transaction id, recorded when the begin's InitTxn opened the order, or by
   * the first caller whose QueryTxn found it (when that answer was lost); null until then.
   */
  transId: string | null;
  playerId: string;
  state: PurchaseState;
  channel: PurchaseChannel;
  creditNanos: bigint;
  sandbox: boolean;
  createTime: Date;
  publisherKeyEncrypted: Uint8Array;
}

/** One round trip (Prisma's include made it three). */
export async function findPurchase(db: DbClient, purchaseId: string): Promise<PurchaseRecord | undefined> {
  const [row] = await db.$queryRaw<PurchaseRecord[]>`
    SELECT p.id, p.campaign_id AS "campaignId", c.campaign_key AS "campaignKey", c.app_id AS "appId",
           p.link_id AS "linkId", p.order_id AS "orderId", p.trans_id AS "transId", p.player_id AS "playerId",
           p.state::text AS state, p.channel::text AS channel, p.credit_nanos AS "creditNanos", p.sandbox, p.create_time AS "createTime",
           d.publisher_key_encrypted AS "publisherKeyEncrypted"
      FROM purchases p
      JOIN campaigns c ON c.id = p.campaign_id
      JOIN distributor_links d ON d.id = p.link_id
     WHERE p.id = ${purchaseId}`;
  return row;
}

/** How one begin's InitTxn ended, as recordInitTxnEnds records it. */
export interface InitTxnEndRecord {
  purchaseId: string;
  /** The platform's transaction id when it opened the order; null when nobody answered. */
  transId: string | null;
  /** A web order's approval page (reference 3.1 "Web flow"). */
  steamUrl?: string;
  now: Date;
}

/**
 * Records how begins' InitTxn calls ended (docs/settlement.md "A begin repeated"), in one
 * statement for all of them: a begin repeated with the same requestId answers from it.
 * Committed without waiting for its WAL flush (UNHURRIED_COMMIT):
 * losing it in a database crash leaves the purchase as its opening left it, and the next caller
 * asks QueryTxn.
 */
export async function recordInitTxnEnds(db: DbClient, ends: readonly InitTxnEndRecord[]): Promise<void> {
  await db.$executeRaw`
    WITH ${UNHURRIED_COMMIT},
    ends AS (SELECT * FROM unnest(${ends.map((end) => end.purchaseId)}::text[], ${ends.map((end) => end.transId)}::text[],
                                  ${ends.map((end) => end.now)}::timestamptz[], ${ends.map((end) => end.steamUrl ?? null)}::text[])
                      AS e(id, trans_id, end_time, steam_url))
    UPDATE purchases p SET trans_id = COALESCE(p.trans_id, e.trans_id), init_txn_end_time = e.end_time,
           steam_url = COALESCE(p.steam_url, e.steam_url)
      FROM unhurried, ends e WHERE p.id = e.id`;
}

/**
 * Records the platform's transaction id once QueryTxn found the order (the begin's InitTxn
 * went unanswered, or its record was lost), committed as `recordInitTxnEnds` is.
 */
export async function recordTransId(db: DbClient, purchaseId: string, transId: string): Promise<void> {
  await db.$executeRaw`
    WITH ${UNHURRIED_COMMIT}
    UPDATE purchases SET trans_id = ${transId} FROM unhurried WHERE id = ${purchaseId} AND trans_id IS NULL`;
}

/** Whether a credit was this call's; with the campaign's public facts just after it when the credit read them. */
export type Credit = { credited: false } | { credited: true; fundingAfter?: PublicCampaignFacts };

/**
 * An order the platform settled and partly refunded before it was credited: the
 * player paid for the lines not refunded, so the purchase is credited and its refunded share
 * reversed in the same transaction, and the ledger equals the platform's at once.
 */
export interface PartialRefund {
  row: ReportRow;
  /** The platform's time of the refund. */
  platformTime: Date;
}

/**
 * Credits an open purchase exactly once (creditOnce, DESIGN 3). Alone it is one statement; with
 * `partialRefund` (its reversal), `finding` (the reconciliation finding that says why it was
 * credited) or an `ifHeard` that something hears, the credit runs in a transaction with those
 * writes, so the credit is never without them. Says whether this call credited it: not when
 * another caller got there first (and then it writes nothing).
 */
export async function creditPurchase(
  db: Db,
  purchaseId: string,
  now: Date,
  options: {
    partialRefund?: PartialRefund;
    finding?: FindingOf;
    /**
     * The webhook outbox (docs/webhooks.md), run in the credit's transaction when the purchase
     * was credited: `reversed` when a partial refund was reversed too.
     */
    ifHeard?: InTransaction<{ projectId: string; reversed: boolean; sandbox: boolean }>;
  } = {},
): Promise<Credit> {
  const { partialRefund, finding, ifHeard } = options;
  if (!partialRefund && !finding) {
    const credited = await creditOnce(db, { purchaseId, of: "open", now, unlessHeard: ifHeard !== undefined });
    if (credited === undefined) return { credited: false };
    if (credited !== "heard")
      return { credited: true, ...(credited.fundingAfter && { fundingAfter: credited.fundingAfter }) };
  }
  const credited = await db.$transaction(async (tx) => {
    const credit = await creditOnce(tx, { purchaseId, of: "open", now });
    if (credit === undefined || credit === "heard") return false;
    const { linkId, projectId, creditNanos, sandbox } = credit;
    if (finding) await recordFinding(tx, { ...finding, purchaseId, linkId, now });
    const owed = partialRefund === undefined || sandbox ? 0n : reversedCredit(creditNanos, partialRefund.row);
    if (partialRefund !== undefined && owed > 0n) {
      const { platformTime } = partialRefund;
      const purchase = { id: purchaseId, projectId };
      await recordReversal(tx, {
        purchase,
        linkId,
        kind: "PARTIAL_REFUND",
        totalNanos: owed,
        deltaNanos: owed,
        platformTime,
        now,
      });
    }
    await ifHeard?.(tx, { projectId, reversed: owed > 0n, sandbox });
    return true;
  });
  return { credited };
}

/**
 * What a decision to end a purchase was based on; the row must still say so when it ends, or a
 * concurrent settlement that already moved it on (e.g. to AUTHORIZED, about to capture) wins:
 * - "open": any non-final state (the platform itself says the order failed or was declined);
 * - "initiated": the platform said Init, so only a purchase nobody has seen approved (spec 3.1);
 * - "unconfirmed": the platform does not know the order, so only while no caller recorded its
 *   trans_id (found it meanwhile).
 */
export type EndGuard = "open" | "initiated" | "unconfirmed";

const END_GUARDS: Record<EndGuard, Prisma.Sql> = {
  // Only the state machine's own guard (mayMoveInto) below.
  open: Prisma.sql`TRUE`,
  initiated: isStarted(),
  unconfirmed: Prisma.sql`${isStarted()} AND trans_id IS NULL`,
};

/**
 * Ends a purchase without payment (CANCELLED, FAILED or ABANDONED) and gives its reservation back, in one
 * statement, only while the row is as `guard` ("open" unless given) says. With `freeRequest` the
 * begin's requestId is freed with it, so a begin retried with it opens a fresh order. Returns
 * false when the row was not as the guard says, and then nothing is written.
 */
export async function endPurchase(
  db: DbClient,
  end: {
    purchaseId: string;
    to: UnpaidEnd;
    now: Date;
    guard?: EndGuard;
    freeRequest?: { campaignId: string; requestId: string };
  },
): Promise<boolean> {
  const { purchaseId, to, now, freeRequest } = end;
  const freed = freeRequest
    ? Prisma.sql`, freed AS (
        DELETE FROM purchase_requests
         WHERE campaign_id = ${freeRequest.campaignId} AND request_id = ${freeRequest.requestId}
           AND purchase_id = ${purchaseId} AND EXISTS (SELECT 1 FROM ended)
        RETURNING 1
      )`
    : Prisma.empty;
  const [row] = await db.$queryRaw<{ ended: boolean }[]>`
    WITH ended AS (
      UPDATE purchases SET state = ${stateValue(to)}, update_time = ${now}
       WHERE id = ${purchaseId} AND ${mayMoveInto(to)} AND ${END_GUARDS[end.guard ?? "open"]}
      RETURNING link_id, credit_nanos, sandbox
    ), ${RELEASED}${freed}
    SELECT EXISTS (SELECT 1 FROM ended) AS ended`;
  return row?.ended === true;
}

/**
 * A `WITH` item giving back the reservations of the purchases a preceding `ended` item returns
 * (link_id, credit_nanos, sandbox): each was reserved on its link when begun (DESIGN 3
 * "Outstanding"); a sandbox link reserves nothing.
 */
export const RELEASED = Prisma.sql`released AS (
      UPDATE distributor_links d SET reserved_nanos = d.reserved_nanos - ended.credit_nanos
        FROM ended WHERE d.id = ended.link_id AND NOT ended.sandbox
      RETURNING 1
    )`;

/** The purchase's current state, or undefined when it does not exist. */
export async function readPurchaseState(db: DbClient, purchaseId: string): Promise<PurchaseState | undefined> {
  const row = await db.purchase.findUnique({ where: { id: purchaseId }, select: { state: true } });
  return row?.state;
}
