import { Prisma } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";

// What a webhook event is written from, read inside the transaction of the change it
// tells of (services/webhooks/resource-events.ts): the account a changed row belongs to, and the
// runway alert's state on a campaign.

/** The account of the campaign; null when there is no such campaign. */
export async function campaignAccount(db: DbClient, campaignId: string): Promise<string | null> {
  const row = await db.campaign.findUnique({ where: { id: campaignId }, select: { accountId: true } });
  return row?.accountId ?? null;
}

/** The campaign and account of the purchase; null when there is no such purchase. */
export async function purchaseOwner(
  db: DbClient,
  purchaseId: string,
): Promise<{ accountId: string; campaignId: string } | null> {
  const row = await db.purchase.findUnique({
    where: { id: purchaseId },
    select: { campaignId: true, campaign: { select: { accountId: true } } },
  });
  return row && { accountId: row.campaign.accountId, campaignId: row.campaignId };
}

/** The account of the distributor link; null when there is no such link. */
export async function linkAccount(db: DbClient, linkId: string): Promise<string | null> {
  const row = await db.distributorLink.findUnique({ where: { id: linkId }, select: { accountId: true } });
  return row?.accountId ?? null;
}

export interface RunwayAlertState {
  campaignId: string;
  accountId: string;
  /** The threshold in days; 0: no alert. */
  runwayAlertDays: number;
  /** Whether the runway is below the threshold since the last campaign.runway_low event. */
  runwayLow: boolean;
}

/**
 * The runway alert of the project's campaign, its row locked for the caller's transaction so
 * two replicas cannot both fire one crossing; null when the project has no campaign.
 */
export async function lockRunwayAlert(db: DbClient, projectId: string): Promise<RunwayAlertState | null> {
  const [row] = await db.$queryRaw<RunwayAlertState[]>`
    SELECT id AS "campaignId", account_id AS "accountId", runway_alert_days AS "runwayAlertDays",
           runway_low AS "runwayLow"
      FROM campaigns WHERE project_id = ${projectId} FOR UPDATE`;
  return row ?? null;
}

/** Records a crossing of the runway threshold. Not a change the studio made: neither the version (etag) nor update_time moves. */
export async function setRunwayLow(db: DbClient, campaignId: string, low: boolean): Promise<void> {
  await db.$executeRaw`UPDATE campaigns SET runway_low = ${low} WHERE id = ${campaignId}`;
}

/**
 * Whether crediting a purchase of campaign `c` can write to the webhook outbox: an ACTIVE
 * endpoint of its account hears purchase.credited or purchase.reversed, or the campaign's
 * runway alert is set or raised (a credit may fire or clear it). When not, the credit stays one
 * statement, which evaluates this itself (store/purchases.ts). An endpoint created
 * while a credit commits may miss it, as it may when the outbox's own count runs in the credit's
 * transaction (docs/webhooks.md).
 */
export const CREDIT_HEARD = Prisma.sql`(c.runway_alert_days > 0 OR c.runway_low OR EXISTS (
  SELECT 1 FROM webhook_endpoints e
   WHERE e.account_id = c.account_id AND e.state = 'ACTIVE'
     AND e.event_types && ARRAY['purchase.credited', 'purchase.reversed']::text[]))`;
