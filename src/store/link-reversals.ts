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

type WindowSums = "windowIssuedNanos" | "windowReversedNanos" | "windowReversalCount";

/** Links in id order after `page.after`, with what was issued and reversed since `since`. */
export async function listLinkReversals(db: DbClient, options: IdPage & { since: Date }): Promise<LinkReversalRow[]> {
  const after = options.after ?? "";
  const rows = await db.$queryRaw<(Omit<LinkReversalRow, WindowSums> & Record<WindowSums, bigint | null>)[]>`
    SELECT d.id, d.account_id AS "accountId", d.display_name AS "displayName", d.sandbox,
           d.issued_nanos AS "issuedNanos", d.reversed_nanos AS "reversedNanos", d.reconcile_time AS "reconcileTime",
           (SELECT SUM(p.credit_nanos) FROM purchases p
             WHERE p.link_id = d.id AND NOT p.sandbox AND p.credit_time >= ${options.since})
             AS "windowIssuedNanos",
           w.window_reversed AS "windowReversedNanos", w.window_count AS "windowReversalCount"
      FROM distributor_links d
      LEFT JOIN LATERAL (
        SELECT -SUM(l.amount_nanos) AS window_reversed, COUNT(DISTINCT l.reversal_id) AS window_count
          FROM ledger_entries l JOIN purchase_reversals r ON r.purchase_id = l.reversal_id
         WHERE r.link_id = d.id AND l.type = 'REVERSAL' AND l.create_time >= ${options.since}) w ON true
     WHERE d.id > ${after}
     ORDER BY d.id
     LIMIT ${options.take}`;
  // Sums come back as numerics, and are null over no rows.
  return rows.map((row) => ({
    ...row,
    issuedNanos: BigInt(row.issuedNanos),
    reversedNanos: BigInt(row.reversedNanos),
    windowIssuedNanos: BigInt(row.windowIssuedNanos ?? 0),
    windowReversedNanos: BigInt(row.windowReversedNanos ?? 0),
    windowReversalCount: BigInt(row.windowReversalCount ?? 0),
  }));
}
