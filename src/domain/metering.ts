// Usage of a running resource at its hourly price, in integer nano-USD (spec 2.2: money never
// passes through a float). Times are epoch milliseconds, so the domain stays free of I/O.

export const HOUR_MS = 3_600_000;

/**
 * What running from epoch up to `atMs` costs, rounded down to a nano. Charging a span as the
 * difference of two of these telescopes: however a period is cut into spans, the pieces add
 * up to exactly the whole, with no rounding drift.
 */
function costUpTo(hourlyPriceNanos: bigint, atMs: number): bigint {
  return (hourlyPriceNanos * BigInt(atMs)) / BigInt(HOUR_MS);
}

/** The usage of running from `fromMs` to `toMs`; nothing for an empty or backward span. */
export function usageBetween(hourlyPriceNanos: bigint, fromMs: number, toMs: number): bigint {
  if (toMs <= fromMs || hourlyPriceNanos <= 0n) return 0n;
  return costUpTo(hourlyPriceNanos, toMs) - costUpTo(hourlyPriceNanos, fromMs);
}

/** The start of the hour `atMs` falls in: the metering job charges whole hours only. */
export function hourFloor(atMs: number): number {
  return Math.floor(atMs / HOUR_MS) * HOUR_MS;
}

export interface UsagePiece {
  startMs: number;
  endMs: number;
  amountNanos: bigint;
}

export interface MeterSpanInput {
  hourlyPriceNanos: bigint;
  fromMs: number;
  toMs: number;
  /** At most this many pieces; the rest of the span is left for the next run. */
  maxPieces: number;
}

/**
 * Cuts a span at hour boundaries into ledger pieces, each dated at its end, so a week's spend
 * (and the runway computed from it) counts only the hours that fell within that week even when
 * metering ran late.
 */
export function meterSpan(input: MeterSpanInput): UsagePiece[] {
  const pieces: UsagePiece[] = [];
  let start = input.fromMs;
  while (start < input.toMs && pieces.length < input.maxPieces) {
    const end = Math.min(hourFloor(start) + HOUR_MS, input.toMs);
    pieces.push({ startMs: start, endMs: end, amountNanos: usageBetween(input.hourlyPriceNanos, start, end) });
    start = end;
  }
  return pieces;
}
