import { Prisma } from "../../gen/prisma/client.js";
import type { CampaignState, LinkState } from "../domain/availability.js";
import type { FundingVisibility, SpendWindow } from "../domain/funding.js";
import type { Db } from "./open-database.js";
import { withinWindow } from "./spend-window.js";

/** Everything the public reads need about one campaign, read in a single round trip. */
export interface PublicCampaignFacts {
  campaignId: string;
  state: CampaignState;
  ready: boolean;
  visibility: FundingVisibility;
  balanceNanos: bigint;
  sevenDaySpendNanos: bigint;
  cheapestCreditNanos: bigint | undefined;
  linkState: LinkState;
  sandbox: boolean;
  outstandingNanos: bigint;
  reservedNanos: bigint;
  outstandingLimitNanos: bigint;
}

/** The columns of `PublicCampaignFacts`, as `publicCampaignColumns` selects them. */
export interface PublicCampaignRow {
  id: string;
  state: CampaignState;
  ready: boolean;
  funding_visibility: FundingVisibility;
  balance_nanos: bigint;
  seven_day_usage_nanos: bigint | null;
  cheapest_credit_nanos: bigint | null;
  link_state: LinkState;
  sandbox: boolean;
  outstanding_nanos: bigint;
  reserved_nanos: bigint;
  outstanding_limit_nanos: bigint;
}

/**
 * The select list of a campaign's public facts over `c` (the campaign), `p` (its project) and `d`
 * (its distributor link): the public read's, and the credit's over the project and link rows it
 * just updated (purchase-credit.ts), so both answer the same facts the same way.
 */
export function publicCampaignColumns(window: SpendWindow): Prisma.Sql {
  return Prisma.sql`c.id, c.state::text AS state, c.ready_time IS NOT NULL AS ready,
           c.funding_visibility::text AS funding_visibility,
           p.balance_nanos,
           (SELECT (-SUM(l.amount_nanos))::bigint FROM ledger_entries l
             WHERE l.project_id = p.id AND l.type = 'USAGE' AND ${withinWindow("l.create_time", window)}) AS seven_day_usage_nanos,
           (SELECT MIN(o.credit_nanos) FROM offers o
             WHERE o.campaign_id = c.id AND o.active) AS cheapest_credit_nanos,
           d.state::text AS link_state, d.sandbox, d.outstanding_nanos, d.reserved_nanos, d.outstanding_limit_nanos`;
}

/** Reads a campaign by its public key; undefined when no campaign has it. */
export async function findPublicCampaign(
  db: Db,
  campaignKey: string,
  window: SpendWindow,
): Promise<PublicCampaignFacts | undefined> {
  const [row] = await db.$queryRaw<PublicCampaignRow[]>`
    SELECT ${publicCampaignColumns(window)}
      FROM campaigns c
      JOIN projects p ON p.id = c.project_id
      JOIN distributor_links d ON d.id = c.link_id
     WHERE c.campaign_key = ${campaignKey}`;
  return row && toPublicCampaignFacts(row);
}

export function toPublicCampaignFacts(row: PublicCampaignRow): PublicCampaignFacts {
  return {
    campaignId: row.id,
    state: row.state,
    ready: row.ready,
    visibility: row.funding_visibility,
    balanceNanos: row.balance_nanos,
    sevenDaySpendNanos: row.seven_day_usage_nanos ?? 0n,
    cheapestCreditNanos: row.cheapest_credit_nanos ?? undefined,
    linkState: row.link_state,
    sandbox: row.sandbox,
    outstandingNanos: row.outstanding_nanos,
    reservedNanos: row.reserved_nanos,
    outstandingLimitNanos: row.outstanding_limit_nanos,
  };
}

export interface PublicOfferRow {
  id: string;
  displayName: string;
  description: string;
  priceNanos: bigint;
}

/** Active offers, cheapest first; credit is not read, so it cannot leak (spec 2.4). */
export function listActiveOffers(db: Db, campaignId: string): Promise<PublicOfferRow[]> {
  return db.offer.findMany({
    where: { campaignId, active: true },
    select: { id: true, displayName: true, description: true, priceNanos: true },
    orderBy: [{ priceNanos: "asc" }, { createTime: "asc" }, { id: "asc" }],
  });
}
