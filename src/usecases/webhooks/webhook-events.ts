import type { Prisma } from "../../../gen/prisma/client.js";
import type { WebhookEventType } from "../../domain/webhook-events.js";
import type { SettlementRow } from "../../store/links.js";

type Tx = Prisma.TransactionClient;

/**
 * The webhook events a change writes in its own transaction (the transactional outbox), each with the
 * resource read back in that transaction as the API returns it. Use cases and jobs call them
 * through ServiceDeps.webhookEvents; the implementation (services/webhooks/resource-events.ts)
 * knows the API's mappers, which use cases do not.
 */
export interface WebhookEvents {
  /** The campaign entered its current state; an event when studios hear of that state. */
  campaignState(tx: Tx, campaignId: string, now: Date): Promise<void>;
  /** purchase.credited (and purchase.reversed with it for a partial refund); the runway looked at. */
  purchaseCredited(
    tx: Tx,
    credit: { purchaseId: string; projectId: string; reversed: boolean; sandbox: boolean },
    now: Date,
  ): Promise<void>;
  purchaseEvent(
    tx: Tx,
    type: Extract<WebhookEventType, "purchase.credited" | "purchase.reversed">,
    purchaseId: string,
    now: Date,
  ): Promise<void>;
  /** The transfer entered its current state; an event when done, waiting or failed. */
  transferState(tx: Tx, transferId: string, now: Date): Promise<void>;
  linkCredentialInvalid(tx: Tx, linkId: string, now: Date): Promise<void>;
  settlementRecorded(tx: Tx, link: { accountId: string; linkId: string }, row: SettlementRow, now: Date): Promise<void>;
  /** campaign.runway_low once per crossing below the campaign's threshold. */
  checkRunway(tx: Tx, projectId: string, now: Date): Promise<void>;
}
