// The operator's fraud signal, pure: how much of the credit a link issued over a
// window was reversed, and whether that passes the operator's threshold.

const FULL_BPS = 10_000n;

/**
 * Reversed over issued in basis points, rounded down (integer arithmetic). Credit reversed in a
 * window that issued none (reversals of older purchases) counts as the whole of it.
 */
export function reversalRateBps(issuedNanos: bigint, reversedNanos: bigint): bigint {
  if (reversedNanos <= 0n) return 0n;
  if (issuedNanos <= 0n) return FULL_BPS;
  return (reversedNanos * FULL_BPS) / issuedNanos;
}

/** Flagged when something was reversed and the rate reaches `ratePercent`. */
export function isReversalRateFlagged(rateBps: bigint, ratePercent: number): boolean {
  return rateBps > 0n && rateBps >= BigInt(ratePercent) * 100n;
}
