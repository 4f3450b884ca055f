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

/** `take` findings after `after`, of `linkId` when given. */
export function listReconciliationFindings(
  db: DbClient,
  options: { linkId: string | undefined; after: FindingCursor | undefined; take: number },
): Promise<FindingRow[]> {
  const linkId = options.linkId ?? null;
  const after = options.after;
  return db.$queryRaw<FindingRow[]>`
    SELECT f.purchase_id AS "purchaseId", p.campaign_id AS "campaignId", c.account_id AS "accountId",
           f.link_id AS "linkId", f.kind::text AS kind, f.report_status AS "reportStatus", f.detail,
           f.create_time AS "createTime"
      FROM reconciliation_findings f
      JOIN purchases p ON p.id = f.purchase_id
      JOIN campaigns c ON c.id = p.campaign_id
     WHERE (${linkId}::text IS NULL OR f.link_id = ${linkId}::text)
       AND (${after === undefined}::boolean
            OR (f.create_time, f.purchase_id, f.kind::text)
               > (${after?.createTime ?? null}::timestamptz, ${after?.purchaseId ?? null}::text, ${after?.kind ?? null}::text))
     ORDER BY f.create_time, f.purchase_id, f.kind::text
     LIMIT ${options.take}`;
}
