// Refusal texts said by more than one handler, so a caller reads one wording for one situation.

/** The platform did not answer a call that may be repeated as it was (spec 4.1: UNAVAILABLE). */
export const PLATFORM_UNAVAILABLE = "The platform is not answering; retry with backoff.";

/** The platform did not answer while an order was opened: the retry must name the same request. */
export const PLATFORM_UNAVAILABLE_SAME_REQUEST = "The platform is not answering; retry with the same requestId.";
