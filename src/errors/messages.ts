// Refusal texts said by more than one handler, so a caller reads one wording for one situation.

/** The platform did not answer a call that may be repeated as it was (spec 4.1: UNAVAILABLE). */
export const PLATFORM_UNAVAILABLE = "The platform is not answering; retry with backoff.";

/** The platform did not answer while an order was opened: the retry must name the same request. */
export const PLATFORM_UNAVAILABLE_SAME_REQUEST = "The platform is not answering; retry with the same requestId.";

/**
 * An amount past the largest the service accepts (spec 2.2; docs/api.md "Money"), `largest` as
 * "USD 1000000.00": the request check of every money field and the handlers say it alike.
 */
export const amountOutOfRange = (field: string, largest: string) =>
  `"${field}" is out of range: the largest amount accepted is ${largest}.`;
