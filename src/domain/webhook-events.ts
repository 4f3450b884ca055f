// The webhook event types (docs/webhooks.md): what happened, spelled
// `<resource>.<what happened>`. An endpoint subscribes to some of them by name.

export const WEBHOOK_EVENT_TYPES = [
  "campaign.verified",
  "campaign.needs_review",
  "campaign.declined",
  "campaign.revoked",
  "campaign.runway_low",
  "purchase.credited",
  "purchase.reversed",
  "transfer.succeeded",
  "transfer.awaiting_acknowledgement",
  "transfer.failed",
  "distributor_link.credential_invalid",
  "settlement.recorded",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The version of the envelope and of the resources in it: the API's (`encore.*.v1`). */
export const WEBHOOK_API_VERSION = "v1";

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The campaign states whose entry is an event, and its type. */
export const CAMPAIGN_STATE_EVENTS: Partial<Record<string, WebhookEventType>> = {
  VERIFIED: "campaign.verified",
  NEEDS_REVIEW: "campaign.needs_review",
  DECLINED: "campaign.declined",
  REVOKED: "campaign.revoked",
};

/** The transfer states whose entry is an event, and its type. */
export const TRANSFER_STATE_EVENTS: Partial<Record<string, WebhookEventType>> = {
  SUCCEEDED: "transfer.succeeded",
  AWAITING_ACKNOWLEDGEMENT: "transfer.awaiting_acknowledgement",
  FAILED: "transfer.failed",
};

/**
 * Runway alerts fire once per crossing: when the runway is known and below the
 * threshold while the campaign is not already marked low; the mark clears when the runway is
 * back at or above it (or unknown: nothing was spent), re-arming the alert.
 */
export function runwayCrossing(
  runwayDays: bigint | undefined,
  thresholdDays: number,
  markedLow: boolean,
): "fire" | "clear" | "none" {
  const low = thresholdDays > 0 && runwayDays !== undefined && runwayDays < BigInt(thresholdDays);
  if (low && !markedLow) return "fire";
  if (!low && markedLow) return "clear";
  return "none";
}
