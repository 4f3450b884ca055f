import { randomUUID } from "node:crypto";
import { Prisma } from "../../gen/prisma/client.js";
import { spendWindow } from "../domain/funding.js";
import type { DbClient } from "./db-client.js";
import { FUNDING_CHANGED_CHANNEL } from "./funding-channel.js";
import {
  type PublicCampaignFacts,
  type PublicCampaignRow,
  publicCampaignColumns,
  toPublicCampaignFacts,
} from "./public-campaigns.js";
import { endedUnpaid, mayMoveInto, stateValue } from "./purchase-guards.js";
import { CREDIT_HEARD } from "./webhook-sources.js";

/**
 * Which purchase a credit is for (DESIGN 3):
 * - "open": one still open, which becomes CREDITED and releases its reservation (settlement);
 * - "ended": one that ended without payment whose order the platform settled after all, which
 *   keeps its state and gains its credit time; its reservation was released when it ended
 *   (reconciliation, docs/settlement.md "Credit from Steam's report").
 */
export type CreditOf = "open" | "ended";

/** What a credit wrote, from the rows it changed. */
export interface Credited {
  linkId: string;
  projectId: string;
  creditNanos: bigint;
  sandbox: boolean;
  /** The campaign's public facts just after the credit; absent when it moved no money (sandbox). */
  fundingAfter?: PublicCampaignFacts;
}

// The public facts' columns are null when the credit moved no money; the credit's own are null
// when nothing was credited.
type CreditedRow = { [K in keyof PublicCampaignRow]: PublicCampaignRow[K] | null } & {
  credited: boolean;
  heard: boolean;
  credited_link_id: string;
  credited_project_id: string;
  credited_nanos: bigint;
  credited_sandbox: boolean;
};

/**
 * The one definition of a purchase's credit, in one statement, so all of it or none is written:
 * the purchase marked credited (only while it is as `of` says, so a second caller writes
 * nothing), then, unless in sandbox (spec 1.6 and 8), a PLAYER_TOP_UP ledger entry on the
 * campaign's project (unique per purchase: two credits that ever got past the guard fail the
 * statement), the project's balance up, the link's outstanding and issued up and an open
 * purchase's reservation released, and the notification that tells every replica the campaign's
 * funding changed (sent at commit). Undefined when nothing was credited.
 *
 * With `unlessHeard` it credits nothing when something hears the credit (a webhook endpoint or a
 * runway alert: docs/webhooks.md) and says so, "heard": the same snapshot decides both, and the
 * caller credits again in a transaction with room for the outbox's writes.
 *
 * The campaign's public facts just after it come with it (the balance and the link's amounts
 * from the rows it updated: a statement's parts do not see each other's writes), so complete
 * answers the funding after a purchase without a read of its own (docs/performance.md).
 */
export async function creditOnce(
  db: DbClient,
  credit: { purchaseId: string; of: CreditOf; now: Date; unlessHeard?: boolean },
): Promise<Credited | "heard" | undefined> {
  const { purchaseId, now } = credit;
  const { guard, set, released } = KINDS[credit.of](now);
  const [row] = await db.$queryRaw<CreditedRow[]>`
    WITH heard AS (
      SELECT ${credit.unlessHeard ?? false} AND ${CREDIT_HEARD} AS heard
        FROM purchases p JOIN campaigns c ON c.id = p.campaign_id
       WHERE p.id = ${purchaseId} AND ${guard}
    ), credited AS (
      UPDATE purchases p SET ${set}
        FROM campaigns c
       WHERE p.id = ${purchaseId} AND ${guard} AND c.id = p.campaign_id
         AND NOT EXISTS (SELECT 1 FROM heard WHERE heard)
      RETURNING p.link_id, p.credit_nanos, ${released} AS released_nanos, p.sandbox, p.campaign_id,
                c.project_id, c.campaign_key
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
             reserved_nanos = reserved_nanos - credited.released_nanos,
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
           (SELECT count(*) FROM announced) AS announced, credited.link_id AS credited_link_id,
           credited.project_id AS credited_project_id, credited.credit_nanos AS credited_nanos,
           credited.sandbox AS credited_sandbox, after.*
      FROM (VALUES (1)) AS one (x) LEFT JOIN credited ON TRUE LEFT JOIN after ON TRUE`;
  if (row?.heard) return "heard";
  if (!row?.credited) return undefined;
  return {
    linkId: row.credited_link_id,
    projectId: row.credited_project_id,
    creditNanos: row.credited_nanos,
    sandbox: row.credited_sandbox,
    ...(row.id !== null && { fundingAfter: toPublicCampaignFacts(row as PublicCampaignRow) }),
  };
}

// What marks a purchase credited, from which state, and how much of a reservation it releases.
const KINDS: Record<CreditOf, (now: Date) => { guard: Prisma.Sql; set: Prisma.Sql; released: Prisma.Sql }> = {
  open: (now) => ({
    guard: mayMoveInto("CREDITED", "p.state"),
    set: Prisma.sql`state = ${stateValue("CREDITED")}, credit_time = ${now}, update_time = ${now}`,
    released: Prisma.sql`p.credit_nanos`,
  }),
  ended: (now) => ({
    guard: Prisma.sql`${endedUnpaid("p.state")} AND p.credit_time IS NULL`,
    set: Prisma.sql`credit_time = ${now}`,
    released: Prisma.sql`0::bigint`,
  }),
};
