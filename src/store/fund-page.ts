import type { SpendWindow } from "../domain/funding.js";
import type { DbClient } from "./db-client.js";
import {
  type PublicCampaignFacts,
  type PublicCampaignRow,
  publicCampaignColumns,
  toPublicCampaignFacts,
} from "./public-campaigns.js";

// What the public funding page reads (docs/game-integration.md, "Funding from the web"): the
// public funding facts funding:get reads, the same way, with the names a page shows and whether
// the studio turned web funding on.

export interface FundPageFacts extends PublicCampaignFacts {
  gameName: string;
  campaignName: string;
  webFundingEnabled: boolean;
}

interface FundPageRow extends PublicCampaignRow {
  game_name: string;
  campaign_name: string;
  web_funding_enabled: boolean;
}

export async function findFundPage(
  db: DbClient,
  campaignKey: string,
  window: SpendWindow,
): Promise<FundPageFacts | undefined> {
  const [row] = await db.$queryRaw<FundPageRow[]>`
    SELECT ${publicCampaignColumns(window)}, g.display_name AS game_name, c.display_name AS campaign_name,
           c.web_funding_enabled
      FROM campaigns c
      JOIN projects p ON p.id = c.project_id
      JOIN distributor_links d ON d.id = c.link_id
      JOIN games g ON g.id = c.game_id
     WHERE c.campaign_key = ${campaignKey}`;
  if (!row) return undefined;
  return {
    ...toPublicCampaignFacts(row),
    gameName: row.game_name,
    campaignName: row.campaign_name,
    webFundingEnabled: row.web_funding_enabled,
  };
}

/** What the page shows of a purchase, besides its state; undefined for no purchase or one the game made. */
export interface WebOrderView {
  offerName: string;
  priceNanos: bigint;
  /** The approval page its InitTxn answered (recorded with its end), if recorded. */
  steamUrl: string | null;
}

export async function findWebOrder(db: DbClient, purchaseId: string): Promise<WebOrderView | undefined> {
  const [row] = await db.$queryRaw<WebOrderView[]>`
    SELECT o.display_name AS "offerName", p.price_nanos AS "priceNanos", p.steam_url AS "steamUrl"
      FROM purchases p
      JOIN offers o ON o.id = p.offer_id
     WHERE p.id = ${purchaseId} AND p.channel = 'WEB'`;
  return row;
}
