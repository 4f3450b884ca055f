import { Prisma } from "../../gen/prisma/client.js";
import type { SpendWindow } from "../domain/funding.js";
import type { DbClient } from "./db-client.js";
import { type KeysetPageRequest, keysetPage, type Paged } from "./keyset-page.js";
import type { Db } from "./open-database.js";
import { withinWindow } from "./spend-window.js";

// The studio's reads of its campaigns' purchases and funding (spec 4.6). Purchases are
// written only by the purchase flow; nothing here changes them.

/** A purchase as the studio reads it, with its reversal if any. */
const purchaseFields = {
  omit: { linkId: true, transId: true, initTxnEndTime: true, steamUrl: true, language: true },
  include: { reversal: { select: { kind: true, reversedNanos: true, platformTime: true, seenTime: true } } },
} satisfies Prisma.PurchaseDefaultArgs;

export type PurchaseRow = Prisma.PurchaseGetPayload<typeof purchaseFields>;

export function findPurchase(
  db: DbClient,
  name: { accountId: string; campaignId: string; purchaseId: string },
): Promise<PurchaseRow | null> {
  return db.purchase.findFirst({
    where: { id: name.purchaseId, campaignId: name.campaignId, campaign: { accountId: name.accountId } },
    ...purchaseFields,
  });
}

/**
 * Newest first (spec 4.6); with `reversed`, only purchases with (true) or without (false) a
 * reversal; with `state`, `channel`, `since` and `before`, only those in that state, made
 * there and created within [since, before).
 */
export function listPurchases(
  db: Db,
  options: KeysetPageRequest & {
    campaignId: string;
    reversed?: boolean;
    state?: PurchaseRow["state"];
    channel?: PurchaseRow["channel"];
    since?: Date;
    before?: Date;
  },
): Promise<Paged<PurchaseRow>[]> {
  const hasReversal = Prisma.sql`EXISTS (SELECT 1 FROM purchase_reversals r WHERE r.purchase_id = purchases.id)`;
  const conditions = [Prisma.sql`campaign_id = ${options.campaignId}`];
  if (options.reversed !== undefined) conditions.push(options.reversed ? hasReversal : Prisma.sql`NOT ${hasReversal}`);
  if (options.state !== undefined) conditions.push(Prisma.sql`state = ${options.state}::"PurchaseState"`);
  if (options.channel !== undefined) conditions.push(Prisma.sql`channel = ${options.channel}::"PurchaseChannel"`);
  if (options.since !== undefined) conditions.push(Prisma.sql`create_time >= ${options.since}`);
  if (options.before !== undefined) conditions.push(Prisma.sql`create_time < ${options.before}`);
  const list = { table: "purchases", where: Prisma.join(conditions, " AND "), direction: "newestFirst" } as const;
  return keysetPage(db, list, options, (ids) =>
    db.purchase.findMany({ where: { id: { in: ids } }, ...purchaseFields }),
  );
}

export interface FundingFacts {
  balanceNanos: bigint;
  /** USAGE over the window, as a positive amount. */
  spendNanos: bigint;
  purchaseCount: bigint;
  purchasedCreditNanos: bigint;
  /** Purchases with credit taken back over the window, and how much. */
  reversalCount: bigint;
  reversedCreditNanos: bigint;
}

/**
 * The campaign project's balance, its USAGE ledger entries, the purchases credited and the
 * credit reversed within the spend window, in one statement so the figures agree with each other.
 * A purchase counts by its credit time: CREDITED ones, and ones the service ended FAILED or
 * CANCELLED (or ABANDONED) that reconciliation credited from the platform's report.
 */
export async function readFunding(
  db: DbClient,
  options: { campaignId: string; window: SpendWindow },
): Promise<FundingFacts | undefined> {
  const { campaignId, window } = options;
  const [row] = await db.$queryRaw<Record<keyof FundingFacts, bigint | null>[]>`
    SELECT p.balance_nanos AS "balanceNanos",
           (SELECT -SUM(l.amount_nanos) FROM ledger_entries l
             WHERE l.project_id = p.id AND l.type = 'USAGE'
               AND ${withinWindow("l.create_time", window)}) AS "spendNanos",
           (SELECT COUNT(*) FROM purchases u
             WHERE u.campaign_id = c.id AND NOT u.sandbox
               AND ${withinWindow("u.credit_time", window)}) AS "purchaseCount",
           (SELECT SUM(u.credit_nanos) FROM purchases u
             WHERE u.campaign_id = c.id AND NOT u.sandbox
               AND ${withinWindow("u.credit_time", window)}) AS "purchasedCreditNanos",
           (SELECT COUNT(DISTINCT l.reversal_id) FROM ledger_entries l
             WHERE l.project_id = p.id AND l.type = 'REVERSAL'
               AND ${withinWindow("l.create_time", window)}) AS "reversalCount",
           (SELECT -SUM(l.amount_nanos) FROM ledger_entries l
             WHERE l.project_id = p.id AND l.type = 'REVERSAL'
               AND ${withinWindow("l.create_time", window)}) AS "reversedCreditNanos"
      FROM campaigns c JOIN projects p ON p.id = c.project_id
     WHERE c.id = ${campaignId}`;
  if (!row) return undefined;
  // Sums come back as numerics, and are null over no rows.
  const facts = Object.entries(row).map(([key, value]) => [key, value === null ? 0n : BigInt(value)]);
  return Object.fromEntries(facts) as FundingFacts;
}
