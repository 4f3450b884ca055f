import { describe, expect, it } from "vitest";
import { isReversalRateFlagged, reversalRateBps } from "../../src/domain/reversal-rate.js";

describe("reversal rate", () => {
  it.each([
    [100n, 0n, 0n],
    [0n, 0n, 0n],
    [100n, 5n, 500n],
    [3n, 1n, 3333n],
    [0n, 7n, 10_000n],
    [7n, 7n, 10_000n],
  ])("issued %s, reversed %s: %s bps (rounded down)", (issued, reversed, bps) => {
    expect(reversalRateBps(issued, reversed)).toBe(bps);
  });

  it("flags a rate at or past the threshold, never a zero rate", () => {
    expect(isReversalRateFlagged(500n, 5)).toBe(true);
    expect(isReversalRateFlagged(499n, 5)).toBe(false);
    expect(isReversalRateFlagged(0n, 1)).toBe(false);
  });
});
