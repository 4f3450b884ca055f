import { Code } from "@connectrpc/connect";

/**
 * Every named refusal of the service (spec 7), with its canonical code. This table is the
 * only place reasons are spelled; the README's name -> code -> HTTP table is copied from it.
 *
 * `precondition`: the refusal also carries a google.rpc.PreconditionFailure whose violation
 * `type` equals the reason (spec 7 item 1: "present on the 400 named refusals").
 */
export const reasons = {
  // Public refusals of spec 7.
  CAMPAIGN_NOT_VERIFIED: { code: Code.FailedPrecondition, precondition: true },
  CAMPAIGN_NOT_READY: { code: Code.FailedPrecondition, precondition: true },
  PUBLISHER_UNAVAILABLE: { code: Code.FailedPrecondition, precondition: true },
  PUBLISHER_LIMIT_REACHED: { code: Code.FailedPrecondition, precondition: true },
  OFFER_INACTIVE: { code: Code.FailedPrecondition, precondition: true },
  ORDER_REFUSED: { code: Code.FailedPrecondition, precondition: true },
  PLAYER_NOT_AUTHENTICATED: { code: Code.Unauthenticated, precondition: false },
  // Management refusals of spec 4.6 and 7 (their mapping is ours: spec says "not shown").
  KEY_DOES_NOT_OWN_PRODUCT: { code: Code.FailedPrecondition, precondition: true },
  LINK_IN_USE: { code: Code.FailedPrecondition, precondition: true },
  PRODUCT_ALREADY_HAS_CAMPAIGN: { code: Code.AlreadyExists, precondition: false },
  CAMPAIGN_TRANSFERRED: { code: Code.FailedPrecondition, precondition: true },
  NOT_RETRYABLE: { code: Code.FailedPrecondition, precondition: true },
  CANNOT_CONVERT: { code: Code.FailedPrecondition, precondition: true },
  NOT_AWAITING_ACKNOWLEDGEMENT: { code: Code.FailedPrecondition, precondition: true },
  ALREADY_TRANSFERRED: { code: Code.FailedPrecondition, precondition: true },
  TRANSFER_RUNNING: { code: Code.Aborted, precondition: false },
  WARNINGS_NOT_ACKNOWLEDGED: { code: Code.FailedPrecondition, precondition: true },
  ETAG_MISMATCH: { code: Code.Aborted, precondition: false },
  // The operator's refusals (OperatorService; our own names).
  /** DecideCampaign: the campaign's state does not allow this decision (or another operator decided first). */
  REVIEW_NOT_ALLOWED: { code: Code.FailedPrecondition, precondition: true },
  /** RecordSettlement: more than the link's outstanding credit. */
  SETTLEMENT_EXCEEDS_OUTSTANDING: { code: Code.FailedPrecondition, precondition: true },
  /** ReconcileDistributorLink: a reconciliation pass (a replica's, or another demand) holds the link. */
  RECONCILIATION_RUNNING: { code: Code.Aborted, precondition: false },
  // The account service's refusals (AccountService; our own names).
  /** DeleteApiKey, DeleteMember, UpdateMember: the write would leave the account without any owner. */
  LAST_OWNER: { code: Code.FailedPrecondition, precondition: true },
  // The webhook service's refusals (WebhookService; our own names).
  /** RedeliverWebhookDelivery: the endpoint is DISABLED; enable it first (UpdateWebhookEndpoint). */
  WEBHOOK_ENDPOINT_DISABLED: { code: Code.FailedPrecondition, precondition: true },
  /**
   * CreateWebhookEndpoint: the account has WEBHOOK_ENDPOINTS_PER_ACCOUNT endpoints. Not
   * RESOURCE_EXHAUSTED (429): that one tells clients to retry with backoff, and no retry helps
   * until the studio deletes an endpoint (google.rpc.Code: FAILED_PRECONDITION when the state
   * must be fixed first), as PUBLISHER_LIMIT_REACHED for the outstanding limit.
   */
  WEBHOOK_ENDPOINT_LIMIT_REACHED: { code: Code.FailedPrecondition, precondition: true },
} as const satisfies Record<string, { code: Code; precondition: boolean }>;

export type Reason = keyof typeof reasons;
