import { randomUUID } from "node:crypto";
import { Prisma } from "../../gen/prisma/client.js";
import type { LedgerType } from "../../gen/prisma/enums.js";
import { meterSpan } from "../domain/metering.js";
import type { DbClient, InTransaction } from "./db-client.js";
import { cursorText, type KeysetPageRequest } from "./keyset-page.js";
import type { Db } from "./open-database.js";

// A project's ledger: every movement of its balance (player top-ups, developer top-ups, usage,
// reversals of player top-ups). Listing is newest first on (create_time, id); the cursor keeps
// create_time's microseconds, since entries written with the database's now() have them.

export interface LedgerRow {
  id: string;
  type: LedgerType;
  amountNanos: bigint;
  /** The purchase credited, or for a REVERSAL the purchase reversed. */
  purchaseId: string | null;
  /** The purchase's campaign, to name the purchase. */
  campaignId: string | null;
  checkoutSessionId: string | null;
  resourceId: string | null;
  createTime: Date;
  cursor: readonly string[];
}

export interface LedgerQuery extends KeysetPageRequest {
  projectId: string;
  type: LedgerType | undefined;
  since: Date | undefined;
  before: Date | undefined;
}

export async function listLedgerEntries(db: DbClient, query: LedgerQuery): Promise<LedgerRow[]> {
  const conditions = [Prisma.sql`l.project_id = ${query.projectId}`];
  if (query.type !== undefined) conditions.push(Prisma.sql`l.type = ${query.type}::"LedgerType"`);
  if (query.since !== undefined) conditions.push(Prisma.sql`l.create_time >= ${query.since}`);
  if (query.before !== undefined) conditions.push(Prisma.sql`l.create_time < ${query.before}`);
  if (query.after !== undefined) {
    conditions.push(Prisma.sql`(l.create_time, l.id) < (${query.after[0]}::timestamptz, ${query.after[1]})`);
  }
  const rows = await db.$queryRaw<(Omit<LedgerRow, "cursor"> & { cursorTime: string })[]>`
    SELECT l.id, l.type::text AS type, l.amount_nanos AS "amountNanos",
           COALESCE(l.purchase_id, l.reversal_id) AS "purchaseId", p.campaign_id AS "campaignId",
           l.checkout_session_id AS "checkoutSessionId", l.resource_id AS "resourceId", l.create_time AS "createTime",
           ${cursorText("l.create_time")} AS "cursorTime"
      FROM ledger_entries l
      LEFT JOIN purchases p ON p.id = COALESCE(l.purchase_id, l.reversal_id)
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY l.create_time DESC, l.id DESC
     LIMIT ${query.take}`;
  // amount_nanos as a bigint, whatever number type the driver hands over.
  return rows.map(({ cursorTime, ...row }) => ({
    ...row,
    amountNanos: BigInt(row.amountNanos),
    cursor: [cursorTime, row.id],
  }));
}

export interface MeteredResource {
  id: string;
  projectId: string;
  running: boolean;
  hourlyPriceNanos: bigint;
  meteredUntil: Date;
}

/** Locks a resource row for metering or moving; later writers wait, then see its new state. */
export async function lockResource(
  tx: Prisma.TransactionClient,
  resourceId: string,
): Promise<MeteredResource | undefined> {
  const [row] = await tx.$queryRaw<MeteredResource[]>`
    SELECT id, project_id AS "projectId", state = 'RUNNING' AS running, hourly_price_nanos AS "hourlyPriceNanos",
           metered_until AS "meteredUntil"
      FROM resources WHERE id = ${resourceId} FOR UPDATE`;
  return row && { ...row, hourlyPriceNanos: BigInt(row.hourlyPriceNanos) };
}

/**
 * Charges a locked resource's usage up to `until` to its current project: USAGE entries (one
 * per hour, dated at its end), the balance down by the same amount and `metered_until`
 * advanced, all in the caller's transaction. A stopped resource only has `metered_until`
 * advanced. Returns the amount charged.
 */
export async function chargeUsage(
  tx: Prisma.TransactionClient,
  options: { resource: MeteredResource; until: Date; maxPieces: number },
): Promise<bigint> {
  const { resource, until } = options;
  const fromMs = resource.meteredUntil.getTime();
  if (until.getTime() <= fromMs) return 0n;
  if (!resource.running) {
    await tx.resource.update({ where: { id: resource.id }, data: { meteredUntil: until } });
    return 0n;
  }
  const pieces = meterSpan({
    hourlyPriceNanos: resource.hourlyPriceNanos,
    fromMs,
    toMs: until.getTime(),
    maxPieces: options.maxPieces,
  });
  const last = pieces[pieces.length - 1];
  if (!last) return 0n;
  const total = pieces.reduce((sum, piece) => sum + piece.amountNanos, 0n);
  await tx.ledgerEntry.createMany({
    data: pieces.map((piece) => ({
      id: randomUUID(),
      projectId: resource.projectId,
      type: "USAGE" as const,
      amountNanos: -piece.amountNanos,
      resourceId: resource.id,
      createTime: new Date(piece.endMs),
    })),
  });
  await tx.project.update({ where: { id: resource.projectId }, data: { balanceNanos: { decrement: total } } });
  await tx.resource.update({ where: { id: resource.id }, data: { meteredUntil: new Date(last.endMs) } });
  return total;
}

/** Running resources whose usage lags behind `until`: the metering job's work list. */
export async function resourcesBehind(db: DbClient, options: { until: Date; take: number }): Promise<string[]> {
  const rows = await db.resource.findMany({
    where: { state: "RUNNING", meteredUntil: { lt: options.until } },
    orderBy: { meteredUntil: "asc" },
    take: options.take,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * One resource's metering in its own transaction. The row lock makes replicas take turns, and
 * the second finds `metered_until` already advanced: nothing is charged twice.
 */
export function meterResource(
  db: Db,
  options: {
    resourceId: string;
    until: Date;
    maxPieces: number;
    /** Run with the project charged, when usage was charged (the runway alert). */
    inTransaction?: InTransaction<string>;
  },
): Promise<bigint> {
  return db.$transaction(async (tx) => {
    const resource = await lockResource(tx, options.resourceId);
    if (!resource) return 0n;
    const charged = await chargeUsage(tx, { resource, until: options.until, maxPieces: options.maxPieces });
    if (charged > 0n) await options.inTransaction?.(tx, resource.projectId);
    return charged;
  });
}
