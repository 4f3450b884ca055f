import { describe, expect, it } from "vitest";
import {
  isWithinAmountBound,
  LARGEST_AMOUNT,
  MAX_AMOUNT_NANOS,
  maxCredit,
  parsePositiveCents,
  parseUsd,
  toCents,
  usd,
} from "../../src/domain/money.js";

const m = (units: bigint, nanos = 0, currencyCode = "USD") => ({ currencyCode, units, nanos });

describe("parseUsd", () => {
  it.each([
    [m(5n), 5_000_000_000n],
    [m(0n, 990_000_000), 990_000_000n],
    [m(-1n, -500_000_000), -1_500_000_000n],
    // The largest amount accepted, either side of zero.
    [m(1_000_000n), 1_000_000_000_000_000n],
    [m(-1_000_000n), -1_000_000_000_000_000n],
    [m(999_999n, 999_999_999), 999_999_999_999_999n],
  ])("case %# reads as %s nanos", (money, nanos) => {
    expect(parseUsd(money)).toEqual({ ok: true, nanos });
  });

  it.each([
    [m(1n, 0, "EUR"), "NOT_USD"],
    [m(1n, 1_000_000_000), "NANOS_OUT_OF_RANGE"],
    [m(1n, -1), "SIGNS_DIFFER"],
    [m(-1n, 1), "SIGNS_DIFFER"],
    // One nano past the largest amount accepted, and the amounts that overflowed int64 nano-USD.
    [m(1_000_000n, 1), "AMOUNT_OUT_OF_RANGE"],
    [m(-1_000_000n, -1), "AMOUNT_OUT_OF_RANGE"],
    [m(9_223_372_037n), "AMOUNT_OUT_OF_RANGE"],
    [m(9_007_199_254_740_993n), "AMOUNT_OUT_OF_RANGE"],
    [m(-(2n ** 63n)), "AMOUNT_OUT_OF_RANGE"],
  ])("case %# is refused: %s", (money, problem) => {
    expect(parseUsd(money)).toEqual({ ok: false, problem });
  });
});

describe("the largest amount accepted", () => {
  it("is USD 1,000,000.00 either side of zero, named so in refusals", () => {
    expect(MAX_AMOUNT_NANOS).toBe(1_000_000_000_000_000n);
    expect(LARGEST_AMOUNT).toBe("USD 1000000.00");
    expect([MAX_AMOUNT_NANOS, -MAX_AMOUNT_NANOS, 0n].map(isWithinAmountBound)).toEqual([true, true, true]);
    expect([MAX_AMOUNT_NANOS + 1n, -MAX_AMOUNT_NANOS - 1n].map(isWithinAmountBound)).toEqual([false, false]);
  });

  it("leaves room in int64 nano-USD for thousands of amounts at the bound in one total", () => {
    expect((2n ** 63n - 1n) / MAX_AMOUNT_NANOS).toBeGreaterThan(9_000n);
  });
});

describe("parsePositiveCents", () => {
  it.each([
    [m(4n, 990_000_000), { ok: true, nanos: 4_990_000_000n }],
    [m(0n, 10_000_000), { ok: true, nanos: 10_000_000n }],
    [m(4n, 995_000_000), { ok: false, problem: "NOT_WHOLE_CENTS" }],
    [m(0n), { ok: false, problem: "NOT_POSITIVE" }],
    [m(-1n), { ok: false, problem: "NOT_POSITIVE" }],
    [m(1_000_000n, 10_000_000), { ok: false, problem: "AMOUNT_OUT_OF_RANGE" }],
  ])("case %#", (money, result) => {
    expect(parsePositiveCents(money)).toEqual(result);
  });
});

describe("usd and toCents", () => {
  it("splits nano-USD into units and nanos with one sign", () => {
    expect(usd(4_990_000_000n)).toEqual(m(4n, 990_000_000));
    expect(usd(-1_500_000_000n)).toEqual(m(-1n, -500_000_000));
    expect(usd(0n)).toEqual(m(0n));
  });
  it("rounds nano-USD down to whole cents", () => {
    expect(toCents(4_990_000_000n)).toBe(499n);
  });
});

describe("maxCredit", () => {
  it.each([
    [10_000_000_000n, 30, 7_000_000_000n],
    [4_990_000_000n, 30, 3_493_000_000n],
    [1_000_000_000n, 0, 1_000_000_000n],
  ])("price %s with a %i%% share allows %s", (price, share, credit) => {
    expect(maxCredit(price, share)).toBe(credit);
  });
});
