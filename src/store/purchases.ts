import { randomUUID } from "node:crypto";
import { Prisma } from "../../gen/prisma/client.js";
import { spendWindow } from "../domain/funding.js";
import type { PurchaseState } from "../domain/purchase-state.js";
import { type ReportRow, reversedCredit } from "../domain/reversal.js";
import type { DbClient, InTransaction } from "./db-client.js";
import { type Driven, executeCount, queryRows } from "./direct-queries.js";
import { FUNDING_CHANGED_CHANNEL } from "./funding-channel.js";
import type { Db } from "./open-database.js";
import {
  type PublicCampaignFacts,
  type PublicCampaignRow,
  publicCampaignColumns,
  toPublicCampaignFacts,
} from "./public-campaigns.js";
import { addPurchaseCredit } from "./purchase-credit.js";
import { mayMoveInto } from "./purchase-guards.js";
import { type FindingOf, recordFinding, recordReversal } from "./reconciliation.js";
import { UNHURRIED_COMMIT } from "./unhurried-commit.js";
import { CREDIT_HEARD } from "./webhook-sources.js";

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
   * The platform's transaction id, recorded by the first caller after the begin that found the
   * order (QueryTxn: complete, a retried begin, the sweeper); null until then.
   */
  transId: string | null;
  playerId: string;
  state: PurchaseState;
  creditNanos: bigint;
  sandbox: boolean;
  createTime: Date;
  publisherKeyEncrypted: Uint8Array;
}

interface PurchaseRow {
  id: string;
  campaign_id: string;
  campaign_key: string;
  app_id: Driven<bigint>;
  link_id: string;
  order_id: Driven<bigint>;
  trans_id: string | null;
  player_id: string;
  state: PurchaseState;
  credit_nanos: Driven<bigint>;
  sandbox: boolean;
  create_time: Driven<Date>;
  publisher_key_encrypted: Uint8Array;
}

/** One round trip (Prisma's include made it three). */
export async function findPurchase(db: DbClient, purchaseId: string): Promise<PurchaseRecord | undefined> {
  const rows = await queryRows<PurchaseRow>(
    db,
    Prisma.sql`
    SELECT p.id, p.campaign_id, c.campaign_key, c.app_id, p.link_id, p.order_id, p.trans_id, p.player_id,
           p.state::text AS state, p.credit_nanos, p.sandbox, p.create_time, d.publisher_key_encrypted
      FROM purchases p
      JOIN campaigns c ON c.id = p.campaign_id
      JOIN distributor_links d ON d.id = p.link_id
     WHERE p.id = ${purchaseId}`,
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    campaignId: row.campaign_id,
    campaignKey: row.campaign_key,
    appId: BigInt(row.app_id),
    linkId: row.link_id,
    orderId: BigInt(row.order_id),
    transId: row.trans_id,
    playerId: row.player_id,
    state: row.state,
    creditNanos: BigInt(row.credit_nanos),
    sandbox: row.sandbox,
    createTime: new Date(row.create_time),
    publisherKeyEncrypted: new Uint8Array(row.publisher_key_encrypted),
  };
}

/**
 * Records the platform's transaction id once QueryTxn found the order and nothing else is
 * written (a retried begin; complete before the approval). Committed without waiting for its
 * WAL flush (UNHURRIED_COMMIT): it is a hint; losing it in a database crash leaves the purchase
 * as its begin left it, and the next caller asks QueryTxn again.
 */
export async function recordTransId(db: DbClient, purchaseId: string, transId: string): Promise<void> {
  await executeCount(
    db,
    Prisma.sql`
    WITH ${UNHURRIED_COMMIT}
    UPDATE purchases SET trans_id = ${transId} FROM unhurried WHERE id = ${purchaseId} AND trans_id IS NULL`,
  );
}

/**
 * Credits a purchase exactly once, in one transaction (DESIGN 3): the purchase becomes CREDITED
 * only from a non-final state; then (not in sandbox) its credit added (addPurchaseCredit) and
 * its reservation released; with `partialRefund`, its reversal too (below); with `finding`,
 * the reconciliation finding that says why it was credited, in the same
 * transaction, so the credit is never without its reason. Says whether this call credited it:
 * not when another caller got there first (and then it writes nothing).
 */
export async function creditPurchase(
  db: Db,
  purchaseId: string,
  now: Date,
  options: {
    partialRefund?: PartialRefund;
    finding?: FindingOf;
    /**
     * The webhook outbox (docs/webhooks.md), run in the credit's transaction when the purchase was credited:
     * `reversed` when a partial refund was reversed too. The common credit (no partial refund,
     * no finding) runs it only when something hears it (`CREDIT_HEARD`), and otherwise stays one
     * statement; the others always run it (it writes only what an endpoint is subscribed to).
     */
    ifHeard?: InTransaction<{ projectId: string; reversed: boolean; sandbox: boolean }>;
  } = {},
): Promise<Credit> {
  if (!options.partialRefund && !options.finding) {
    // One round trip for the common credit, which also finds out whether the hook must
    // run; only then does it take the transaction below, which has room for the hook's writes.
    const outcome = await creditInOneStatement(db, purchaseId, now, options.ifHeard !== undefined);
    if (outcome !== "heard") return outcome;
  }
  const credited = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      { link_id: string; credit_nanos: bigint; sandbox: boolean; project_id: string; campaign_key: string }[]
    >`
      UPDATE purchases p SET state = 'CREDITED', credit_time = ${now}, update_time = ${now}
        FROM campaigns c
       WHERE p.id = ${purchaseId} AND ${mayMoveInto("CREDITED", "p.state")} AND c.id = p.campaign_id
      RETURNING p.link_id, p.credit_nanos, p.sandbox, c.project_id, c.campaign_key`;
    const row = rows[0];
    if (!row) return false;
    // Other replicas' public read caches forget the campaign when this commits.
    if (!row.sandbox) await tx.$executeRaw`SELECT pg_notify(${FUNDING_CHANGED_CHANNEL}, ${row.campaign_key})`;
    if (options.finding) await recordFinding(tx, { ...options.finding, purchaseId, linkId: row.link_id, now });
    // Spec 1.6 and 8: a sandbox purchase ends CREDITED but moves no money.
    if (row.sandbox) {
      await options.ifHeard?.(tx, { projectId: row.project_id, reversed: false, sandbox: true });
      return true;
    }
    const credit = BigInt(row.credit_nanos);
    const { link_id: linkId, project_id: projectId } = row;
    await addPurchaseCredit(tx, { purchaseId, projectId, linkId, creditNanos: credit, fromReserved: true, now });
    const partial = options.partialRefund;
    const owed = partial === undefined ? 0n : reversedCredit(credit, partial.row);
    if (partial !== undefined && owed > 0n) {
      await recordReversal(tx, {
        purchase: { id: purchaseId, projectId },
        linkId,
        kind: "PARTIAL_REFUND",
        totalNanos: owed,
        deltaNanos: owed,
        platformTime: partial.platformTime,
        now,
      });
    }
    await options.ifHeard?.(tx, { projectId, reversed: partial !== undefined && owed > 0n, sandbox: false });
    return true;
  });
  return { credited };
}

/** Whether a credit was this call's; with the campaign's public facts just after it when the credit read them too. */
export type Credit = { credited: false } | { credited: true; fundingAfter?: PublicCampaignFacts };

/**
 * The common credit (no reversal, no finding) as one statement (one round trip
 * instead of six), so all of it or none is written, the same writes as addPurchaseCredit and
 * the notification that tells other replicas the campaign's funding changed (sent at commit): the
 * state change is the guard (only from a non-final state, so a second caller writes nothing),
 * and the PLAYER_TOP_UP entry's unique purchase_id still fails the whole statement should two
 * ever get past it. A sandbox purchase ends CREDITED and moves no money (spec 1.6 and 8).
 * With `unlessHeard` it credits nothing when something hears the credit, and says so ("heard"):
 * the same snapshot decides both, so no endpoint or alert can come between them.
 * A credit that moved money also answers the campaign's public facts as they are just after it
 * (the balance and the link's amounts from the rows it updated; a statement's parts cannot see
 * each other's writes otherwise): complete answers the funding after the purchase without a
 * read of its own.
 */
async function creditInOneStatement(
  db: Db,
  purchaseId: string,
  now: Date,
  unlessHeard: boolean,
): Promise<Credit | "heard"> {
  const rows = await queryRows<
    { credited: boolean; heard: boolean } & (({ id: string } & PublicCampaignRow) | { id: null })
  >(
    db,
    Prisma.sql`
    WITH heard AS (
      SELECT ${unlessHeard} AND ${CREDIT_HEARD} AS heard
        FROM purchases p JOIN campaigns c ON c.id = p.campaign_id
       WHERE p.id = ${purchaseId} AND p.state IN ('INITIATED', 'AUTHORIZED')
    ), credited AS (
      UPDATE purchases p SET state = 'CREDITED', credit_time = ${now}, update_time = ${now}
        FROM campaigns c
       WHERE p.id = ${purchaseId} AND p.state IN ('INITIATED', 'AUTHORIZED') AND c.id = p.campaign_id
         AND NOT EXISTS (SELECT 1 FROM heard WHERE heard)
      RETURNING p.link_id, p.credit_nanos, p.sandbox, p.campaign_id, c.project_id, c.campaign_key
    ), announced AS (
      SELECT pg_notify(${FUNDING_CHANGED_CHANNEL}, campaign_key) FROM credited WHERE NOT sandbox
    ), entry AS (
      INSERT INTO ledger_entries (id, project_id, type, amount_nanos, purchase_id, create_time)
      SELECT ${randomUUID()}, project_id, 'PLAYER_TOP_UP', credit_nanos, ${purchaseId}, ${now}
        FROM credited WHERE NOT sandbox
      RETURNING 1
    ), project AS (
      UPDATE projects SET balance_nanos = balance_nanos + credited.credit_nanos
        FROM credited WHERE projects.id = credited.project_id AND NOT credited.sandbox
      RETURNING projects.id, projects.balance_nanos
    ), link AS (
      UPDATE distributor_links
         SET outstanding_nanos = outstanding_nanos + credited.credit_nanos,
             reserved_nanos = reserved_nanos - credited.credit_nanos,
             issued_nanos = issued_nanos + credited.credit_nanos
        FROM credited WHERE distributor_links.id = credited.link_id AND NOT credited.sandbox
      RETURNING distributor_links.id, distributor_links.state, distributor_links.sandbox,
                distributor_links.outstanding_nanos, distributor_links.reserved_nanos,
                distributor_links.outstanding_limit_nanos
    ), after AS (
      SELECT ${publicCampaignColumns(spendWindow(now))}
        FROM credited JOIN campaigns c ON c.id = credited.campaign_id
        JOIN project p ON p.id = c.project_id
        JOIN link d ON d.id = c.link_id
    )
    SELECT EXISTS (SELECT 1 FROM credited) AS credited, EXISTS (SELECT 1 FROM heard WHERE heard) AS heard,
           (SELECT count(*) FROM announced) AS announced, after.*
      FROM (VALUES (1)) AS one (x) LEFT JOIN after ON TRUE`,
  );
  const row = rows[0];
  if (row?.credited) return { credited: true, ...(row.id !== null && { fundingAfter: toPublicCampaignFacts(row) }) };
  return row?.heard ? "heard" : { credited: false };
}

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
     WHERE id = ${purchaseId} AND ${mayMoveInto(to)} AND ${END_GUARDS[guard]}
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
