// Money is integer nano-USD (bigint) everywhere inside the service; it never passes through a
// floating-point number (spec 2.2). The wire form is google.type.Money.

export const NANOS_PER_UNIT = 1_000_000_000n;
export const NANOS_PER_CENT = 10_000_000n;

/** The fields of google.type.Money, without tying the domain to generated code. */
export interface MoneyFields {
  currencyCode: string;
  units: bigint;
  nanos: number;
}

export type MoneyProblem = "NOT_USD" | "NANOS_OUT_OF_RANGE" | "SIGNS_DIFFER" | "NOT_WHOLE_CENTS" | "NOT_POSITIVE";

export type ParsedMoney = { ok: true; nanos: bigint } | { ok: false; problem: MoneyProblem };

/** Reads a USD amount, checking google.type.Money's own invariants. */
export function parseUsd(money: MoneyFields): ParsedMoney {
  if (money.currencyCode !== "USD") return { ok: false, problem: "NOT_USD" };
  if (!Number.isInteger(money.nanos) || money.nanos <= -1_000_000_000 || money.nanos >= 1_000_000_000) {
    return { ok: false, problem: "NANOS_OUT_OF_RANGE" };
  }
  const nanos = BigInt(money.nanos);
  if ((money.units > 0n && nanos < 0n) || (money.units < 0n && nanos > 0n)) {
    return { ok: false, problem: "SIGNS_DIFFER" };
  }
  return { ok: true, nanos: money.units * NANOS_PER_UNIT + nanos };
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
