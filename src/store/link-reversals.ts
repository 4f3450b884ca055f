import type { DbClient } from "./db-client.js";
import type { IdPage } from "./id-page.js";

// Reversals per distributor link, for the operator: all-time totals from the link's
// own accounting, and the window's credit issued (purchases by their credit time, those credited
// from the report included) and reversed. One definition of the window for reversals: the
// REVERSAL ledger entries written within it, summed for the credit reversed and counted by
// purchase (as GetFunding counts them), so a count never includes a reversal that took nothing
// back within the window (a sandbox one, or one that grew before it).

export interface LinkReversalRow {
  id: string;
  accountId: string;
  displayName: string;
  sandbox: boolean;
  issuedNanos: bigint;
  reversedNanos: bigint;
  windowIssuedNanos: bigint;
  windowReversedNanos: bigint;
  windowReversalCount: bigint;
  reconcileTime: Date | null;
}

interface RawRow {
  id: string;
  account_id: string;
  display_name: string;
  sandbox: boolean;
  issued_nanos: bigint;
  reversed_nanos: bigint;
  window_issued: bigint | null;
  window_reversed: bigint | null;
  window_count: bigint | null;
  reconcile_time: Date | null;
}

/** Links in id order after `page.after`, with what was issued and reversed since `since`. */
export async function listLinkReversals(db: DbClient, options: IdPage & { since: Date }): Promise<LinkReversalRow[]> {
  const after = options.after ?? "";
  const rows = await db.$queryRaw<RawRow[]>`
    SELECT d.id, d.account_id, d.display_name, d.sandbox, d.issued_nanos, d.reversed_nanos, d.reconcile_time,
           (SELECT SUM(p.credit_nanos) FROM purchases p
             WHERE p.link_id = d.id AND NOT p.sandbox AND p.credit_time >= ${options.since})
             AS window_issued,
           w.window_reversed, w.window_count
      FROM distributor_links d
      LEFT JOIN LATERAL (
        SELECT -SUM(l.amount_nanos) AS window_reversed, COUNT(DISTINCT l.reversal_id) AS window_count
          FROM ledger_entries l JOIN purchase_reversals r ON r.purchase_id = l.reversal_id
         WHERE r.link_id = d.id AND l.type = 'REVERSAL' AND l.create_time >= ${options.since}) w ON true
     WHERE d.id > ${after}
     ORDER BY d.id
     LIMIT ${options.take}`;
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    displayName: row.display_name,
    sandbox: row.sandbox,
    issuedNanos: BigInt(row.issued_nanos),
    reversedNanos: BigInt(row.reversed_nanos),
    windowIssuedNanos: BigInt(row.window_issued ?? 0),
    windowReversedNanos: BigInt(row.window_reversed ?? 0),
    windowReversalCount: BigInt(row.window_count ?? 0),
    reconcileTime: row.reconcile_time,
  }));
}
