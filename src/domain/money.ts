// Money is integer nano-USD (bigint) everywhere inside the service; it never passes through a
// floating-point number (spec 2.2). The wire form is google.type.Money.

export const NANOS_PER_UNIT = 1_000_000_000n;
export const NANOS_PER_CENT = 10_000_000n;

/**
 * The largest amount accepted, either side of zero: USD 1,000,000.00 (spec 2.2; why this one:
 * docs/api.md "Money"). Stored amounts are int64 nano-USD, which holds about USD 9.2 billion,
 * and they are added up: balances, outstanding and issued credit, ledger totals. Under this
 * bound a total has room for more than 9,000 amounts at the bound before it could pass int64.
 */
export const MAX_AMOUNT_NANOS = 1_000_000n * NANOS_PER_UNIT;

/** MAX_AMOUNT_NANOS (whole units) as refusals name it. */
export const LARGEST_AMOUNT = `USD ${MAX_AMOUNT_NANOS / NANOS_PER_UNIT}.00`;

/** The fields of google.type.Money, without tying the domain to generated code. */
export interface MoneyFields {
  currencyCode: string;
  units: bigint;
  nanos: number;
}

export type MoneyProblem =
  | "NOT_USD"
  | "NANOS_OUT_OF_RANGE"
  | "SIGNS_DIFFER"
  | "AMOUNT_OUT_OF_RANGE"
  | "NOT_WHOLE_CENTS"
  | "NOT_POSITIVE";

export type ParsedMoney = { ok: true; nanos: bigint } | { ok: false; problem: MoneyProblem };

/** Whether nano-USD is within the largest amount accepted, either side of zero. */
export function isWithinAmountBound(nanos: bigint): boolean {
  return nanos <= MAX_AMOUNT_NANOS && nanos >= -MAX_AMOUNT_NANOS;
}

/** The nano-USD a google.type.Money's units and nanos add up to, whatever its currency or sign. */
export function amountNanos(money: Pick<MoneyFields, "units" | "nanos">): bigint {
  return money.units * NANOS_PER_UNIT + BigInt(money.nanos);
}

/**
 * Reads a USD amount, checking google.type.Money's own invariants and the largest amount
 * accepted (behind the request check of every money field, money-fields.ts).
 */
export function parseUsd(money: MoneyFields): ParsedMoney {
  if (money.currencyCode !== "USD") return { ok: false, problem: "NOT_USD" };
  if (!Number.isInteger(money.nanos) || money.nanos <= -1_000_000_000 || money.nanos >= 1_000_000_000) {
    return { ok: false, problem: "NANOS_OUT_OF_RANGE" };
  }
  const nanos = BigInt(money.nanos);
  if ((money.units > 0n && nanos < 0n) || (money.units < 0n && nanos > 0n)) {
    return { ok: false, problem: "SIGNS_DIFFER" };
  }
  const amount = amountNanos(money);
  if (!isWithinAmountBound(amount)) return { ok: false, problem: "AMOUNT_OUT_OF_RANGE" };
  return { ok: true, nanos: amount };
}

/** A positive USD amount in whole cents, as prices are (spec 8). */
export function parsePositiveCents(money: MoneyFields): ParsedMoney {
  const parsed = parseUsd(money);
  if (!parsed.ok) return parsed;
  if (parsed.nanos <= 0n) return { ok: false, problem: "NOT_POSITIVE" };
  if (parsed.nanos % NANOS_PER_CENT !== 0n) return { ok: false, problem: "NOT_WHOLE_CENTS" };
  return parsed;
}

/** nano-USD as google.type.Money fields; units and nanos share the amount's sign. */
export function usd(nanos: bigint): MoneyFields {
  return { currencyCode: "USD", units: nanos / NANOS_PER_UNIT, nanos: Number(nanos % NANOS_PER_UNIT) };
}

/** Whole cents of a nano-USD amount (what the platform's order takes). */
export function toCents(nanos: bigint): bigint {
  return nanos / NANOS_PER_CENT;
}

/** The most credit an offer of this price may carry: the price less the storefront's share. */
export function maxCredit(priceNanos: bigint, storefrontSharePercent: number): bigint {
  return (priceNanos * BigInt(100 - storefrontSharePercent)) / 100n;
}
