import { randomUUID } from "node:crypto";
import { Prisma } from "../../gen/prisma/client.js";
import type { PurchaseState } from "../domain/purchase-state.js";
import type { ReversalKind } from "../domain/reversal.js";
import type { DbClient } from "./db-client.js";
import type { FindingKindName } from "./reconciliation-findings.js";

// Reconciliation against the platform's report: the cursor per link and app, and
// reversals of credited purchases. A page's reversals and its cursor move in the caller's one
// transaction; purchases are locked before their reversal is read, so two replicas working the
// same page reverse once, and the cursor only moves from where the page was read.

export interface ReportCursor {
  /** RFC 3339 UTC as the report spells it: the next page starts here. */
  reportTime: string;
  /** Orders already applied whose last update is exactly `reportTime`. */
  seenOrderIds: readonly string[];
  maxResults: number;
}

export async function readCursor(
  db: DbClient,
  key: { linkId: string; appId: bigint },
): Promise<ReportCursor | undefined> {
  const row = await db.reconciliationCursor.findUnique({ where: { linkId_appId: key } });
  if (!row) return undefined;
  return { reportTime: row.reportTime, seenOrderIds: row.seenOrderIds, maxResults: row.maxResults };
}

/**
 * Moves the cursor from `from` (undefined: none yet) to `to`, only while it still is `from`.
 * False when another replica moved it first: the caller's transaction must then roll back.
 */
export async function advanceCursor(
  tx: Prisma.TransactionClient,
  options: { linkId: string; appId: bigint; from: ReportCursor | undefined; to: ReportCursor; now: Date },
): Promise<boolean> {
  const { linkId, appId, from, to, now } = options;
  const seen = [...to.seenOrderIds];
  if (from === undefined) {
    const inserted = await tx.$executeRaw`
      INSERT INTO reconciliation_cursors (link_id, app_id, report_time, seen_order_ids, max_results, update_time)
      VALUES (${linkId}, ${appId}, ${to.reportTime}, ${seen}::text[], ${to.maxResults}, ${now})
      ON CONFLICT (link_id, app_id) DO NOTHING`;
    return inserted === 1;
  }
  const moved = await tx.$executeRaw`
    UPDATE reconciliation_cursors
       SET report_time = ${to.reportTime}, seen_order_ids = ${seen}::text[], max_results = ${to.maxResults},
           update_time = ${now}
     WHERE link_id = ${linkId} AND app_id = ${appId} AND report_time = ${from.reportTime}
       AND seen_order_ids = ${[...from.seenOrderIds]}::text[] AND max_results = ${from.maxResults}`;
  return moved === 1;
}

/** A purchase of the report, with what reconciling it needs. */
export interface ReconciledRow {
  id: string;
  orderId: string;
  state: PurchaseState;
  /** Its credit was added (it carries a credit time). */
  credited: boolean;
  sandbox: boolean;
  creditNanos: bigint;
  projectId: string;
  reversal: { kind: ReversalKind; reversedNanos: bigint } | undefined;
}

/**
 * The link's purchases of `appId` with these order ids. With `lock`, their rows are locked for
 * the caller's transaction first, and reversals are read after the lock is held (a concurrent
 * replica's reversal, committed while this one waited, is seen).
 */
export async function findReconciledPurchases(
  db: DbClient,
  options: { linkId: string; appId: bigint; orderIds: readonly string[]; lock: boolean },
): Promise<ReconciledRow[]> {
  if (options.orderIds.length === 0) return [];
  const ids = [...options.orderIds];
  const lock = options.lock ? Prisma.sql`ORDER BY p.id FOR UPDATE OF p` : Prisma.empty;
  const rows = await db.$queryRaw<Omit<ReconciledRow, "reversal">[]>`
    SELECT p.id, p.order_id::text AS "orderId", p.state::text AS state, p.credit_time IS NOT NULL AS credited,
           p.sandbox, p.credit_nanos AS "creditNanos", c.project_id AS "projectId"
      FROM purchases p JOIN campaigns c ON c.id = p.campaign_id
     WHERE p.link_id = ${options.linkId} AND c.app_id = ${options.appId} AND p.order_id = ANY(${ids}::bigint[])
     ${lock}`;
  const reversals = await db.purchaseReversal.findMany({
    where: { purchaseId: { in: rows.map((row) => row.id) } },
    select: { purchaseId: true, kind: true, reversedNanos: true },
  });
  const byPurchase = new Map(reversals.map((r) => [r.purchaseId, r]));
  return rows.map((row) => {
    const reversal = byPurchase.get(row.id);
    return {
      ...row,
      creditNanos: BigInt(row.creditNanos),
      reversal: reversal && { kind: reversal.kind, reversedNanos: reversal.reversedNanos },
    };
  });
}

/**
 * Records (or raises) a locked purchase's reversal to `totalNanos`; when that takes `deltaNanos`
 * more back: a REVERSAL ledger entry of -delta, the project's balance down (it may go below
 * zero: the credit may be spent already), and the link's outstanding down and reversed up.
 * All in the caller's transaction.
 */
export async function recordReversal(
  tx: Prisma.TransactionClient,
  options: {
    purchase: Pick<ReconciledRow, "id" | "projectId">;
    linkId: string;
    kind: ReversalKind;
    totalNanos: bigint;
    deltaNanos: bigint;
    platformTime: Date;
    now: Date;
  },
): Promise<void> {
  const { purchase, linkId, kind, totalNanos, deltaNanos, platformTime, now } = options;
  await tx.purchaseReversal.upsert({
    where: { purchaseId: purchase.id },
    create: {
      purchaseId: purchase.id,
      linkId,
      kind,
      reversedNanos: totalNanos,
      platformTime,
      seenTime: now,
      updateTime: now,
    },
    update: { kind, reversedNanos: totalNanos, platformTime, updateTime: now },
  });
  if (deltaNanos <= 0n) return;
  await tx.ledgerEntry.create({
    data: {
      id: randomUUID(),
      projectId: purchase.projectId,
      type: "REVERSAL",
      amountNanos: -deltaNanos,
      reversalId: purchase.id,
      createTime: now,
    },
  });
  await tx.$executeRaw`UPDATE projects SET balance_nanos = balance_nanos - ${deltaNanos} WHERE id = ${purchase.projectId}`;
  await tx.$executeRaw`
    UPDATE distributor_links
       SET outstanding_nanos = outstanding_nanos - ${deltaNanos}, reversed_nanos = reversed_nanos + ${deltaNanos}
     WHERE id = ${linkId}`;
}

/** The platform apps of a link's campaigns: reconciliation reads one report per app. */
export async function linkAppIds(db: DbClient, linkId: string): Promise<bigint[]> {
  const rows = await db.campaign.findMany({ where: { linkId }, select: { appId: true }, orderBy: { appId: "asc" } });
  return rows.map((row) => row.appId);
}

/** What a reconciliation found the books and the report disagreeing on, and why. */
export interface FindingOf {
  kind: FindingKindName;
  /** The order's status in the report, as the platform spells it. */
  reportStatus: string;
  detail: string;
}

/**
 * Records a finding once per purchase and kind, however often the report shows it, in the
 * transaction that changes the books for it. True when this call recorded it.
 */
export async function recordFinding(
  db: DbClient,
  finding: FindingOf & { purchaseId: string; linkId: string; now: Date },
): Promise<boolean> {
  const inserted = await db.$executeRaw`
    INSERT INTO reconciliation_findings (purchase_id, kind, link_id, report_status, detail, create_time)
    VALUES (${finding.purchaseId}, ${finding.kind}::"FindingKind", ${finding.linkId}, ${finding.reportStatus},
            ${finding.detail}, ${finding.now})
    ON CONFLICT (purchase_id, kind) DO NOTHING`;
  return inserted === 1;
}
