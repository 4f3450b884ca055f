import {
  AuditEvent_ActorType,
  Campaign_State,
  DistributorLink_State,
  Purchase_Channel,
  Purchase_State,
  Transfer_State,
  TransferItem_State,
  WebhookDelivery_State,
  WebhookEndpoint_State,
} from "@encore-campaigns/client";
import { REASON_WORDS } from "./errors";

// What each state means to a studio and what it can do about it (spec 3.1-3.3).

export const CAMPAIGN_STATE: Record<Campaign_State, { label: string; meaning: string }> = {
  [Campaign_State.STATE_UNSPECIFIED]: { label: "Unknown", meaning: "" },
  [Campaign_State.STATE_VERIFYING]: {
    label: "Verifying",
    meaning: "We are checking with Steam that your key owns the game and that the game is ending. This takes a minute.",
  },
  [Campaign_State.NEEDS_REVIEW]: {
    label: "Needs review",
    meaning:
      "Steam still sells the game and no announcement says it is ending. Post an ending announcement on Steam and retry verification, or wait for the operator's review.",
  },
  [Campaign_State.IN_REVIEW]: { label: "In review", meaning: "The operator is reviewing the campaign." },
  [Campaign_State.DECLINED]: {
    label: "Declined",
    meaning: "The operator declined the campaign. Fix what the verification says and retry verification.",
  },
  [Campaign_State.VERIFIED]: {
    label: "Verified",
    meaning: "Verified: the game is ending and your key owns it.",
  },
  [Campaign_State.REVOKED]: {
    label: "Revoked",
    meaning: "The operator revoked the verification: players cannot buy. Contact the operator.",
  },
};

/** Why players cannot buy right now (PublicFunding.unavailable_reason) and what to do. */
export function unavailableWords(reason: string): string {
  if (reason === "CAMPAIGN_NOT_VERIFIED") return "Players cannot buy until the campaign is verified (see its state).";
  return REASON_WORDS[reason] ?? reason;
}

/** Where a purchase was made (Purchase.channel). */
export const PURCHASE_CHANNEL: Record<Purchase_Channel, string> = {
  [Purchase_Channel.UNSPECIFIED]: "Unknown",
  [Purchase_Channel.GAME]: "Game",
  [Purchase_Channel.WEB]: "Web",
};

export const PURCHASE_STATE: Record<Purchase_State, string> = {
  [Purchase_State.UNSPECIFIED]: "Unknown",
  [Purchase_State.INITIATED]: "Started",
  [Purchase_State.AUTHORIZED]: "Paid, settling",
  [Purchase_State.CREDITED]: "Credited",
  [Purchase_State.CANCELLED]: "Cancelled by the player",
  [Purchase_State.FAILED]: "Failed",
  [Purchase_State.ABANDONED]: "Abandoned: the player never came back from Steam",
};

export const LINK_STATE: Record<DistributorLink_State, string> = {
  [DistributorLink_State.UNSPECIFIED]: "Unknown",
  [DistributorLink_State.ACTIVE]: "Active",
  [DistributorLink_State.CREDENTIAL_INVALID]: "Key refused by Steam: rotate it",
};

export const TRANSFER_STATE: Record<Transfer_State, string> = {
  [Transfer_State.UNSPECIFIED]: "Unknown",
  [Transfer_State.RUNNING]: "Running",
  [Transfer_State.AWAITING_ACKNOWLEDGEMENT]: "Waiting for you to acknowledge an item",
  [Transfer_State.SUCCEEDED]: "Done: the game is in the campaign's project",
  [Transfer_State.FAILED]: "Failed",
};

export const ITEM_STATE: Record<TransferItem_State, string> = {
  [TransferItem_State.UNSPECIFIED]: "Unknown",
  [TransferItem_State.PENDING]: "Waiting",
  [TransferItem_State.MOVED]: "Moved",
  [TransferItem_State.AWAITING_ACKNOWLEDGEMENT]: "Needs your acknowledgement",
  [TransferItem_State.FRESH_INSTALL]: "Moved as a fresh install",
  [TransferItem_State.FAILED]: "Failed",
};

/** Who made a call, as the audit log records it. */
export const ACTOR_TYPE: Record<AuditEvent_ActorType, string> = {
  [AuditEvent_ActorType.UNSPECIFIED]: "Unknown",
  [AuditEvent_ActorType.API_KEY]: "API key",
  [AuditEvent_ActorType.SESSION]: "Member",
  [AuditEvent_ActorType.OPERATOR]: "The operator",
  [AuditEvent_ActorType.NONE]: "Nobody signed in",
};

/** How a recorded call ended, by its google.rpc.Code (0 is OK). */
const OUTCOME: Record<number, string> = {
  0: "Done",
  1: "Cancelled by the caller",
  3: "Refused: invalid input",
  4: "Timed out",
  5: "Refused: not found",
  6: "Refused: already exists",
  7: "Refused: not permitted",
  8: "Refused: too many requests",
  9: "Refused: not possible in this state",
  10: "Refused: changed by someone else meanwhile",
  11: "Refused: out of range",
  12: "Refused: not supported",
  13: "Failed on the service's side",
  14: "Failed: Steam or the service was unavailable",
  16: "Refused: not signed in",
};

export function outcomeWords(code: number): string {
  return OUTCOME[code] ?? `Failed (code ${code})`;
}

/** "encore.campaign.v1.CampaignService/CreateCampaign" → "Create campaign". */
export function methodWords(method: string): string {
  const rpc = method.split("/").pop() ?? method;
  const words = rpc.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The webhook event types (docs/webhooks.md), in the order a studio thinks of them. */
export const WEBHOOK_EVENTS: { type: string; words: string }[] = [
  { type: "campaign.verified", words: "A campaign was verified" },
  { type: "campaign.needs_review", words: "A campaign needs review" },
  { type: "campaign.declined", words: "The operator declined a campaign" },
  { type: "campaign.revoked", words: "The operator revoked a campaign's verification" },
  { type: "campaign.runway_low", words: "A campaign's runway fell below its alert" },
  { type: "purchase.credited", words: "A purchase was credited" },
  { type: "purchase.reversed", words: "A purchase was refunded or charged back" },
  { type: "transfer.succeeded", words: "A transfer is done" },
  { type: "transfer.awaiting_acknowledgement", words: "A transfer waits for your acknowledgement" },
  { type: "transfer.failed", words: "A transfer failed" },
  { type: "distributor_link.credential_invalid", words: "Steam refused a link's publisher key" },
  { type: "settlement.recorded", words: "The operator recorded a settlement" },
];

export const WEBHOOK_ENDPOINT_STATE: Record<WebhookEndpoint_State, string> = {
  [WebhookEndpoint_State.UNSPECIFIED]: "Unknown",
  [WebhookEndpoint_State.ACTIVE]: "Active",
  [WebhookEndpoint_State.DISABLED]: "Disabled: nothing is sent",
};

export const WEBHOOK_DELIVERY_STATE: Record<WebhookDelivery_State, string> = {
  [WebhookDelivery_State.UNSPECIFIED]: "Unknown",
  [WebhookDelivery_State.PENDING]: "Not delivered yet: will retry",
  [WebhookDelivery_State.SUCCEEDED]: "Delivered",
  [WebhookDelivery_State.FAILED]: "Given up",
};
