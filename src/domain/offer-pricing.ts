import { type MoneyFields, maxCredit, parsePositiveCents, parseUsd } from "./money.js";

// Offer prices and credits (spec 2.6, 8): price in whole US cents, credit in USD, more than
// zero and at most the price less the storefront's share.

export type PricingProblem =
  | { field: "price"; problem: "NOT_WHOLE_CENTS_USD" }
  | { field: "credit"; problem: "NOT_POSITIVE_USD" }
  | { field: "credit"; problem: "ABOVE_MAXIMUM"; maxCreditNanos: bigint };

export type Pricing = { ok: true; priceNanos: bigint; creditNanos: bigint } | { ok: false; error: PricingProblem };

/** Either side may be given as stored nano-USD (an update changing only one of them). */
export type Amount = MoneyFields | bigint;

export function checkPricing(price: Amount, credit: Amount, storefrontSharePercent: number): Pricing {
  const parsedPrice = typeof price === "bigint" ? ({ ok: true, nanos: price } as const) : parsePositiveCents(price);
  if (!parsedPrice.ok) return { ok: false, error: { field: "price", problem: "NOT_WHOLE_CENTS_USD" } };
  const parsedCredit = typeof credit === "bigint" ? ({ ok: true, nanos: credit } as const) : parseUsd(credit);
  if (!parsedCredit.ok || parsedCredit.nanos <= 0n) {
    return { ok: false, error: { field: "credit", problem: "NOT_POSITIVE_USD" } };
  }
  const limit = maxCredit(parsedPrice.nanos, storefrontSharePercent);
  if (parsedCredit.nanos > limit) {
    return { ok: false, error: { field: "credit", problem: "ABOVE_MAXIMUM", maxCreditNanos: limit } };
  }
  return { ok: true, priceNanos: parsedPrice.nanos, creditNanos: parsedCredit.nanos };
}
