import type { LedgerType } from "../../gen/prisma/enums.js";
import type { FundingHistoryFacts, LedgerDay, PurchaseDay } from "../domain/funding-history.js";
import type { Db } from "./open-database.js";

// The facts behind GetFundingHistory: the campaign project's balance, its ledger
// summed per UTC day and type, and the purchases credited per UTC day, in one statement so
// they agree with each other.

interface HistoryRow {
  kind: "balance" | "ledger" | "purchases";
  day: string | null;
  type: LedgerType | null;
  amount_nanos: string;
  count: string;
}

// Every ledger type moves the balance, so every one must be summed (a new type fails to compile).
const LEDGER_FIELDS: Record<LedgerType, keyof LedgerDay> = {
  PLAYER_TOP_UP: "playerTopUpNanos",
  DEVELOPER_TOP_UP: "developerTopUpNanos",
  USAGE: "usageNanos",
  REVERSAL: "reversalNanos",
};

/** Undefined when the campaign does not exist. Reads ledger entries and credits from `since` on. */
export async function readFundingHistory(
  db: Db,
  options: { campaignId: string; since: Date },
): Promise<FundingHistoryFacts | undefined> {
  const { campaignId, since } = options;
  const rows = await db.$queryRaw<HistoryRow[]>`
    SELECT 'balance' AS kind, NULL AS day, NULL AS type, p.balance_nanos::text AS amount_nanos, '0' AS count
      FROM campaigns c JOIN projects p ON p.id = c.project_id
     WHERE c.id = ${campaignId}
    UNION ALL
    SELECT 'ledger', to_char(l.create_time AT TIME ZONE 'UTC', 'YYYY-MM-DD'), l.type::text,
           SUM(l.amount_nanos)::text, COUNT(*)::text
      FROM ledger_entries l JOIN campaigns c ON c.project_id = l.project_id
     WHERE c.id = ${campaignId} AND l.create_time >= ${since}
     GROUP BY 2, 3
    UNION ALL
    SELECT 'purchases', to_char(u.credit_time AT TIME ZONE 'UTC', 'YYYY-MM-DD'), NULL,
           SUM(u.credit_nanos)::text, COUNT(*)::text
      FROM purchases u
     WHERE u.campaign_id = ${campaignId} AND NOT u.sandbox AND u.credit_time >= ${since}
     GROUP BY 2`;
  const balance = rows.find((row) => row.kind === "balance");
  if (!balance) return undefined;
  const ledger = new Map<string, LedgerDay>();
  const purchases = new Map<string, PurchaseDay>();
  for (const row of rows) {
    if (row.day === null) continue;
    if (row.kind === "purchases") {
      purchases.set(row.day, { count: BigInt(row.count), creditNanos: BigInt(row.amount_nanos) });
      continue;
    }
    if (row.type === null) continue;
    const field = LEDGER_FIELDS[row.type];
    const day = ledger.get(row.day) ?? {
      playerTopUpNanos: 0n,
      developerTopUpNanos: 0n,
      usageNanos: 0n,
      reversalNanos: 0n,
    };
    day[field] += BigInt(row.amount_nanos);
    ledger.set(row.day, day);
  }
  return { balanceNanos: BigInt(balance.amount_nanos), ledger, purchases };
}
