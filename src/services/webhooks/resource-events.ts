import { CampaignSchema } from "../../../gen/encore/campaign/v1/campaign_pb.js";
import { DistributorLinkSchema, SettlementSchema } from "../../../gen/encore/campaign/v1/distributor_link_pb.js";
import { FundingSchema, PurchaseSchema } from "../../../gen/encore/campaign/v1/purchase_pb.js";
import { TransferSchema } from "../../../gen/encore/campaign/v1/transfer_pb.js";
import type { Prisma } from "../../../gen/prisma/client.js";
import { runwayDays, spendWindow } from "../../domain/funding.js";
import {
  CAMPAIGN_STATE_EVENTS,
  runwayCrossing,
  TRANSFER_STATE_EVENTS,
  type WebhookEventType,
} from "../../domain/webhook-events.js";
import { findCampaign } from "../../store/campaigns.js";
import type { SettlementRow } from "../../store/links.js";
import { findLink } from "../../store/links.js";
import { findPurchase, readFunding } from "../../store/purchases-read.js";
import { findTransfer } from "../../store/transfers.js";
import {
  campaignAccount,
  linkAccount,
  lockRunwayAlert,
  purchaseOwner,
  setRunwayLow,
} from "../../store/webhook-sources.js";
import type { WebhookEvents } from "../../usecases/webhooks/webhook-events.js";
import { toCampaign, toTransfer } from "../campaign/campaigns/campaign-mapper.js";
import { toFunding } from "../campaign/campaigns/funding-mapper.js";
import { toDistributorLink, toSettlement } from "../campaign/links/link-mapper.js";
import { toPurchase } from "../campaign/purchases/purchase-mapper.js";
import { emitWebhookEvent } from "./emit-event.js";

// Each event family read back inside the transaction that changed it, so the event
// carries the resource exactly as that transaction leaves it (and as the API then returns it).

type Tx = Prisma.TransactionClient;

/**
 * The campaign entered its current state; an event when that state is one studios hear of.
 * `publicUrl` (PUBLIC_URL) places the campaign's public page, as GetCampaign shows it.
 */
export async function emitCampaignState(
  tx: Tx,
  event: { campaignId: string; now: Date; publicUrl: string },
): Promise<void> {
  const { campaignId, now } = event;
  const accountId = await campaignAccount(tx, campaignId);
  const row = accountId && (await findCampaign(tx, accountId, campaignId));
  const type = row && CAMPAIGN_STATE_EVENTS[row.state];
  if (!row || !type) return;
  await emitWebhookEvent(tx, {
    accountId: row.accountId,
    type,
    schema: CampaignSchema,
    resource: toCampaign(row, event.publicUrl),
    now,
  });
}

/** purchase.credited or purchase.reversed, with the purchase as GetPurchase returns it. */
export async function emitPurchaseEvent(
  tx: Tx,
  type: Extract<WebhookEventType, "purchase.credited" | "purchase.reversed">,
  purchaseId: string,
  now: Date,
): Promise<void> {
  const owner = await purchaseOwner(tx, purchaseId);
  if (!owner) return;
  const { accountId } = owner;
  const row = await findPurchase(tx, { accountId, campaignId: owner.campaignId, purchaseId });
  if (!row) return;
  await emitWebhookEvent(tx, { accountId, type, schema: PurchaseSchema, resource: toPurchase(accountId, row), now });
}

/**
 * A purchase was credited: purchase.credited, then purchase.reversed when a partial
 * refund's share was reversed with it, and the campaign's runway looked at (its balance rose).
 */
export async function emitPurchaseCredited(
  tx: Tx,
  credit: { purchaseId: string; projectId: string; reversed: boolean; sandbox: boolean },
  now: Date,
): Promise<void> {
  await emitPurchaseEvent(tx, "purchase.credited", credit.purchaseId, now);
  if (credit.reversed) await emitPurchaseEvent(tx, "purchase.reversed", credit.purchaseId, now);
  if (!credit.sandbox) await checkRunway(tx, credit.projectId, now);
}

/** The transfer entered its current state; an event when it is done, waiting or failed. */
export async function emitTransferState(tx: Tx, transferId: string, now: Date): Promise<void> {
  const transfer = await findTransfer(tx, transferId);
  const type = transfer && TRANSFER_STATE_EVENTS[transfer.state];
  if (!transfer || !type) return;
  const resource = toTransfer({ accountId: transfer.accountId, id: transfer.campaignId }, transfer);
  await emitWebhookEvent(tx, { accountId: transfer.accountId, type, schema: TransferSchema, resource, now });
}

/** distributor_link.credential_invalid: the platform rejected the link's publisher key. */
export async function emitLinkCredentialInvalid(tx: Tx, linkId: string, now: Date): Promise<void> {
  const accountId = await linkAccount(tx, linkId);
  const row = accountId && (await findLink(tx, accountId, linkId));
  if (!row) return;
  await emitWebhookEvent(tx, {
    accountId: row.accountId,
    type: "distributor_link.credential_invalid",
    schema: DistributorLinkSchema,
    resource: toDistributorLink(row),
    now,
  });
}

/** settlement.recorded, with the settlement as ListSettlements returns it. */
export async function emitSettlementRecorded(
  tx: Tx,
  link: { accountId: string; linkId: string },
  row: SettlementRow,
  now: Date,
): Promise<void> {
  await emitWebhookEvent(tx, {
    accountId: link.accountId,
    type: "settlement.recorded",
    schema: SettlementSchema,
    resource: toSettlement(link, row),
    now,
  });
}

// GetFunding's window (get-funding.ts): the runway is the balance at the last seven days' rate.

/**
 * campaign.runway_low, once per crossing below the campaign's threshold (domain/webhook-events.ts),
 * with the funding as GetFunding returns it. Called where the balance or the spend changed, in
 * that transaction; the campaign row is locked so two replicas cannot both fire one crossing.
 */
export async function checkRunway(tx: Tx, projectId: string, now: Date): Promise<void> {
  const campaign = await lockRunwayAlert(tx, projectId);
  if (!campaign || (campaign.runwayAlertDays === 0 && !campaign.runwayLow)) return;
  const window = spendWindow(now);
  const facts = await readFunding(tx, { campaignId: campaign.campaignId, window });
  if (!facts) return;
  const runway = runwayDays(facts.balanceNanos, facts.spendNanos);
  const crossing = runwayCrossing(runway, campaign.runwayAlertDays, campaign.runwayLow);
  if (crossing === "none") return;
  await setRunwayLow(tx, campaign.campaignId, crossing === "fire");
  if (crossing === "clear") return;
  const name = { accountId: campaign.accountId, campaignId: campaign.campaignId };
  await emitWebhookEvent(tx, {
    accountId: campaign.accountId,
    type: "campaign.runway_low",
    schema: FundingSchema,
    resource: toFunding(name, { ...facts, runwayDays: runway, windowStart: window.since, windowEnd: window.until }),
    now,
  });
}

/**
 * The events as use cases and jobs reach them (ServiceDeps.webhookEvents); `publicUrl`
 * (PUBLIC_URL) places a campaign's public page in the campaigns they carry.
 */
export const createWebhookEvents = (options: { publicUrl: string }): WebhookEvents => ({
  campaignState: (tx, campaignId, now) => emitCampaignState(tx, { campaignId, now, publicUrl: options.publicUrl }),
  purchaseCredited: emitPurchaseCredited,
  purchaseEvent: emitPurchaseEvent,
  transferState: emitTransferState,
  linkCredentialInvalid: emitLinkCredentialInvalid,
  settlementRecorded: emitSettlementRecorded,
  checkRunway,
});
