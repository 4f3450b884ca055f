import { Code, ConnectError } from "@connectrpc/connect";
import { errorReason } from "@encore-campaigns/client";

// What a refusal means to a studio, keyed on its ErrorInfo reason (docs/errors.md's table,
// src/errors/reasons.ts): the one table of words the console shows. Refusals without a reason
// are worded by their code; an INVALID_ARGUMENT's own message names the field and the rule.
export const REASON_WORDS: Record<string, string> = {
  CAMPAIGN_NOT_VERIFIED: "The campaign is not verified, so players cannot buy yet.",
  CAMPAIGN_NOT_READY: "The game's servers are not in the campaign's project yet: start a transfer.",
  PUBLISHER_UNAVAILABLE:
    "Steam no longer accepts the link's publisher key: rotate the key on the Distributor links page.",
  PUBLISHER_LIMIT_REACHED:
    "The link's unsettled credit has reached the limit the operator set: settle with the operator or ask for a higher limit.",
  OFFER_INACTIVE: "That offer is not on sale.",
  ORDER_REFUSED: "Steam refused the order.",
  PLAYER_NOT_AUTHENTICATED: "Steam did not vouch for the player.",
  KEY_DOES_NOT_OWN_PRODUCT:
    "This publisher key does not own that game on Steam. Use the key of the publisher account that owns it.",
  LINK_IN_USE: "A campaign or a purchase uses this link, so it cannot be deleted.",
  PRODUCT_ALREADY_HAS_CAMPAIGN: "That game already has a campaign.",
  CAMPAIGN_TRANSFERRED: "The campaign's transfer has started or players bought from it, so it cannot be deleted.",
  NOT_RETRYABLE: "Verification can only be run again when the campaign needs review or was declined.",
  CANNOT_CONVERT: "This project cannot be converted as a whole: move the game's resources instead.",
  NOT_AWAITING_ACKNOWLEDGEMENT: "That item is not waiting for your acknowledgement (any more).",
  ALREADY_TRANSFERRED: "The game is already in the campaign's project.",
  TRANSFER_RUNNING: "A transfer is already running for this campaign: wait for it to finish.",
  WARNINGS_NOT_ACKNOWLEDGED: "Read the plan's warnings and tick that you accept them before moving.",
  ETAG_MISMATCH: "Someone changed this in the meantime. The page now shows their version: make your change again.",
  REVIEW_NOT_ALLOWED: "The campaign is not waiting for review.",
  SETTLEMENT_EXCEEDS_OUTSTANDING: "That settlement is more than the link's outstanding credit.",
  RECONCILIATION_RUNNING: "Steam's report is being reconciled for this link right now: try again in a minute.",
  LAST_OWNER: "The account must keep at least one owner.",
  WEBHOOK_ENDPOINT_DISABLED: "The endpoint is disabled: enable it before redelivering.",
  WEBHOOK_ENDPOINT_LIMIT_REACHED:
    "The account has as many webhook endpoints as it may have: delete one before adding another.",
};

const CODE_WORDS: Partial<Record<Code, string>> = {
  [Code.NotFound]: "Not found, or your role may not see it.",
  [Code.Unauthenticated]: "Your key or session is not valid any more. Sign out and sign in again.",
  [Code.PermissionDenied]: "Your role may not do that.",
  [Code.AlreadyExists]: "That already exists.",
  [Code.ResourceExhausted]: "Too many requests just now: wait a moment and try again.",
  [Code.Unavailable]: "Steam or the service is not answering right now: try again in a moment.",
  [Code.DeadlineExceeded]: "The service took too long to answer: try again.",
  [Code.Aborted]: "Someone changed this in the meantime: try again.",
  [Code.Internal]: "Something went wrong on our side. Try again; if it keeps happening, tell the operator.",
};

/** The words to show for a failed call. */
export function describeError(error: unknown): string {
  const reason = errorReason(error);
  if (reason && REASON_WORDS[reason]) return REASON_WORDS[reason];
  if (!(error instanceof ConnectError)) return "The service could not be reached. Check your connection and try again.";
  if (error.code === Code.InvalidArgument || error.code === Code.FailedPrecondition) {
    return `Please check: ${error.rawMessage}`;
  }
  return CODE_WORDS[error.code] ?? error.rawMessage;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ConnectError && error.code === Code.NotFound;
}
