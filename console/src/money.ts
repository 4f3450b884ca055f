import type { Money } from "@encore-campaigns/client";

// Money as the API carries it (google.type.Money, USD): units and nanos, never a float.
const NANOS = 1_000_000_000n;

export function nanosOf(money: Money | undefined): bigint {
  if (!money) return 0n;
  return money.units * NANOS + BigInt(money.nanos);
}

export function usd(nanos: bigint): { currencyCode: string; units: bigint; nanos: number } {
  // Units and nanos carry the same sign (google.type.Money).
  return { currencyCode: "USD", units: nanos / NANOS, nanos: Number(nanos % NANOS) };
}

/** "$1,234.50", "-$3.00"; sub-cent credit keeps its digits ("$3.493"). */
export function formatUsd(value: Money | bigint | undefined): string {
  const nanos = typeof value === "bigint" ? value : nanosOf(value);
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const whole = (abs / NANOS).toLocaleString("en-US");
  let fraction = (abs % NANOS).toString().padStart(9, "0").replace(/0+$/, "");
  if (fraction.length < 2) fraction = fraction.padEnd(2, "0");
  return `${negative ? "-" : ""}$${whole}.${fraction}`;
}

/** Dollars as typed ("12", "12.5", "12.50") to nano-USD; undefined when it is not an amount. */
export function parseDollars(text: string, maxDecimals = 9): bigint | undefined {
  const match = /^\s*\$?\s*(\d{1,12})(?:\.(\d+))?\s*$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  if (fraction.length > maxDecimals) return undefined;
  return BigInt(match[1] ?? "0") * NANOS + BigInt(fraction.padEnd(9, "0"));
}

/** An offer's largest credit: the price less the storefront's share, rounded down (the service's rule). */
export function maxCreditNanos(priceNanos: bigint, storefrontSharePercent: number): bigint {
  return (priceNanos * BigInt(100 - storefrontSharePercent)) / 100n;
}
