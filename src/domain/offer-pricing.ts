import { type MoneyFields, type MoneyProblem, maxCredit, parsePositiveCents, parseUsd } from "./money.js";

// Offer prices and credits (spec 2.6, 8): price in whole US cents, credit in USD, more than
// zero and at most the price less the storefront's share.

export type PricingProblem =
  | { field: "price"; problem: "NOT_WHOLE_CENTS_USD" }
  | { field: "credit"; problem: "NOT_POSITIVE_USD" }
  | { field: "credit"; problem: "ABOVE_MAXIMUM"; maxCreditNanos: bigint }
  | { field: "price" | "credit"; problem: "AMOUNT_OUT_OF_RANGE" };

export type Pricing = { ok: true; priceNanos: bigint; creditNanos: bigint } | { ok: false; error: PricingProblem };

/** Either side may be given as stored nano-USD (an update changing only one of them). */
export type Amount = MoneyFields | bigint;

export function checkPricing(price: Amount, credit: Amount, storefrontSharePercent: number): Pricing {
  const parsedPrice = typeof price === "bigint" ? ({ ok: true, nanos: price } as const) : parsePositiveCents(price);
  if (!parsedPrice.ok) return { ok: false, error: { field: "price", problem: pricingProblem(parsedPrice.problem) } };
  const parsedCredit = typeof credit === "bigint" ? ({ ok: true, nanos: credit } as const) : parseUsd(credit);
  if (!parsedCredit.ok && parsedCredit.problem === "AMOUNT_OUT_OF_RANGE") {
    return { ok: false, error: { field: "credit", problem: "AMOUNT_OUT_OF_RANGE" } };
  }
  if (!parsedCredit.ok || parsedCredit.nanos <= 0n) {
    return { ok: false, error: { field: "credit", problem: "NOT_POSITIVE_USD" } };
  }
  const limit = maxCredit(parsedPrice.nanos, storefrontSharePercent);
  if (parsedCredit.nanos > limit) {
    return { ok: false, error: { field: "credit", problem: "ABOVE_MAXIMUM", maxCreditNanos: limit } };
  }
  return { ok: true, priceNanos: parsedPrice.nanos, creditNanos: parsedCredit.nanos };
}

// Past the largest amount accepted is said as such; any other problem of a price is its rule's.
function pricingProblem(problem: MoneyProblem): "AMOUNT_OUT_OF_RANGE" | "NOT_WHOLE_CENTS_USD" {
  return problem === "AMOUNT_OUT_OF_RANGE" ? problem : "NOT_WHOLE_CENTS_USD";
}
