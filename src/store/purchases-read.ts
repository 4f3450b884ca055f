import { Prisma } from "../../gen/prisma/client.js";
import { keysetPage, type Paged } from "./keyset-page.js";
import type { Db } from "./open-database.js";

// The studio's reads of its campaigns' purchases and funding (spec 4.6). Purchases are
// written only by the purchase flow; nothing here changes them.

export interface PurchaseRow {
  id: string;
  campaignId: string;
  offerId: string;
  orderId: bigint;
  playerId: string;
  state: "INITIATED" | "AUTHORIZED" | "CREDITED" | "CANCELLED" | "FAILED";
  priceNanos: bigint;
  creditNanos: bigint;
  sandbox: boolean;
  createTime: Date;
  updateTime: Date;
  creditTime: Date | null;
}

const purchaseFields = {
  id: true,
  campaignId: true,
  offerId: true,
  orderId: true,
  playerId: true,
  state: true,
  priceNanos: true,
  creditNanos: true,
  sandbox: true,
  createTime: true,
  updateTime: true,
  creditTime: true,
} satisfies Prisma.PurchaseSelect;

export function findPurchase(
  db: Db,
  name: { accountId: string; campaignId: string; purchaseId: string },
): Promise<PurchaseRow | null> {
  return db.purchase.findFirst({
    where: { id: name.purchaseId, campaignId: name.campaignId, campaign: { accountId: name.accountId } },
    select: purchaseFields,
  });
}

/** Newest first (spec 4.6). */
export async function listPurchases(
  db: Db,
  options: { campaignId: string; after: readonly string[] | undefined; take: number },
): Promise<Paged<PurchaseRow>[]> {
  return keysetPage(
    db,
    {
      table: "purchases",
      where: Prisma.sql`campaign_id = ${options.campaignId}`,
      direction: "newestFirst",
      after: options.after,
      take: options.take,
    },
    (ids) => db.purchase.findMany({ where: { id: { in: ids } }, select: purchaseFields }),
  );
}

export interface FundingFacts {
  balanceNanos: bigint;
  /** USAGE over the window, as a positive amount. */
  spendNanos: bigint;
  purchaseCount: bigint;
  purchasedCreditNanos: bigint;
}

interface FundingRow {
  balance_nanos: bigint;
  usage_nanos: bigint | null;
  purchase_count: bigint;
  purchased_credit_nanos: bigint | null;
}

/**
 * The campaign project's balance, its USAGE ledger entries and the purchases credited within
 * [since, until], in one statement so the figures agree with each other.
 */
export async function readFunding(
  db: Db,
  options: { campaignId: string; since: Date; until: Date },
): Promise<FundingFacts | undefined> {
  const { campaignId, since, until } = options;
  const rows = await db.$queryRaw<FundingRow[]>`
    SELECT p.balance_nanos,
           (SELECT -SUM(l.amount_nanos) FROM ledger_entries l
             WHERE l.project_id = p.id AND l.type = 'USAGE'
               AND l.create_time >= ${since} AND l.create_time <= ${until}) AS usage_nanos,
           (SELECT COUNT(*) FROM purchases u
             WHERE u.campaign_id = c.id AND u.state = 'CREDITED' AND NOT u.sandbox
               AND u.credit_time >= ${since} AND u.credit_time <= ${until}) AS purchase_count,
           (SELECT SUM(u.credit_nanos) FROM purchases u
             WHERE u.campaign_id = c.id AND u.state = 'CREDITED' AND NOT u.sandbox
               AND u.credit_time >= ${since} AND u.credit_time <= ${until}) AS purchased_credit_nanos
      FROM campaigns c JOIN projects p ON p.id = c.project_id
     WHERE c.id = ${campaignId}`;
  const row = rows[0];
  if (!row) return undefined;
  return {
    balanceNanos: BigInt(row.balance_nanos),
    spendNanos: row.usage_nanos === null ? 0n : BigInt(row.usage_nanos),
    purchaseCount: BigInt(row.purchase_count),
    purchasedCreditNanos: row.purchased_credit_nanos === null ? 0n : BigInt(row.purchased_credit_nanos),
  };
}
