import type { DbClient } from "./db-client.js";

// What reconciliation found, for the operator: oldest first, keyset-paged by
// (create_time, purchase_id, kind), the table's identity after its time.

export type FindingKindName = "CREDITED_FROM_REPORT" | "SETTLED_NOT_CREDITED";

export interface FindingRow {
  purchaseId: string;
  campaignId: string;
  accountId: string;
  linkId: string;
  kind: FindingKindName;
  reportStatus: string;
  detail: string;
  createTime: Date;
}

/** Where the previous page ended: its last finding's time (ISO), purchase and kind. */
export interface FindingCursor {
  createTime: string;
  purchaseId: string;
  kind: string;
}

interface RawRow {
  purchase_id: string;
  campaign_id: string;
  account_id: string;
  link_id: string;
  kind: FindingKindName;
  report_status: string;
  detail: string;
  create_time: Date;
}

/** `take` findings after `after`, of `linkId` when given. */
export async function listReconciliationFindings(
  db: DbClient,
  options: { linkId: string | undefined; after: FindingCursor | undefined; take: number },
): Promise<FindingRow[]> {
  const linkId = options.linkId ?? null;
  const after = options.after;
  const rows = await db.$queryRaw<RawRow[]>`
    SELECT f.purchase_id, p.campaign_id, c.account_id, f.link_id, f.kind::text AS kind, f.report_status, f.detail,
           f.create_time
      FROM reconciliation_findings f
      JOIN purchases p ON p.id = f.purchase_id
      JOIN campaigns c ON c.id = p.campaign_id
     WHERE (${linkId}::text IS NULL OR f.link_id = ${linkId}::text)
       AND (${after === undefined}::boolean
            OR (f.create_time, f.purchase_id, f.kind::text)
               > (${after?.createTime ?? null}::timestamptz, ${after?.purchaseId ?? null}::text, ${after?.kind ?? null}::text))
     ORDER BY f.create_time, f.purchase_id, f.kind::text
     LIMIT ${options.take}`;
  return rows.map((row) => ({
    purchaseId: row.purchase_id,
    campaignId: row.campaign_id,
    accountId: row.account_id,
    linkId: row.link_id,
    kind: row.kind,
    reportStatus: row.report_status,
    detail: row.detail,
    createTime: row.create_time,
  }));
}
