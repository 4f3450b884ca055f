import type { DbClient } from "./db-client.js";

// The PostgreSQL notification channel on which a write that changed a campaign's public funding
// names the campaign key (pg_notify, delivered to every replica's LISTEN when it commits).
export const FUNDING_CHANGED_CHANNEL = "encore_funding_changed";

/** The payload that stands for every campaign (a campaign key is never "*"). */
export const EVERY_CAMPAIGN = "*";

/** Tells every replica that any campaign's public funding may have changed. */
export async function announceEveryCampaignChanged(db: DbClient): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${FUNDING_CHANGED_CHANNEL}, ${EVERY_CAMPAIGN})`;
}
