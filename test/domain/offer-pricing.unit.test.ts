import { describe, expect, it } from "vitest";
import { checkPricing } from "../../src/domain/offer-pricing.js";

describe("checkPricing (spec 8)", () => {
  const usd = (units: bigint, nanos = 0) => ({ currencyCode: "USD", units, nanos });
  it.each([
    [usd(10n), usd(7n), 30, { ok: true, priceNanos: 10_000_000_000n, creditNanos: 7_000_000_000n }],
    [
      usd(10n),
      usd(7n, 1),
      30,
      { ok: false, error: { field: "credit", problem: "ABOVE_MAXIMUM", maxCreditNanos: 7_000_000_000n } },
    ],
    [usd(0n, 990_000_000), usd(0n, 693_000_000), 30, { ok: true, priceNanos: 990_000_000n, creditNanos: 693_000_000n }],
    [usd(1n, 1), usd(0n, 1), 30, { ok: false, error: { field: "price", problem: "NOT_WHOLE_CENTS_USD" } }],
    [usd(1n), usd(0n), 30, { ok: false, error: { field: "credit", problem: "NOT_POSITIVE_USD" } }],
    [usd(1n), usd(1n), 0, { ok: true, priceNanos: 1_000_000_000n, creditNanos: 1_000_000_000n }],
    // The largest amount accepted (domain/money.ts) is a price; a cent more is not.
    [usd(1_000_000n), usd(700_000n), 30, { ok: true, priceNanos: 10n ** 15n, creditNanos: 7n * 10n ** 14n }],
    [
      usd(1_000_000n, 10_000_000),
      usd(1n),
      30,
      { ok: false, error: { field: "price", problem: "AMOUNT_OUT_OF_RANGE" } },
    ],
    [usd(10n), usd(-1_000_001n), 30, { ok: false, error: { field: "credit", problem: "AMOUNT_OUT_OF_RANGE" } }],
  ])("price %o credit %o share %d", (price, credit, share, expected) => {
    expect(checkPricing(price, credit, share)).toEqual(expected);
  });

  it("checks a stored amount with a new one", () => {
    expect(checkPricing(5_000_000_000n, usd(4n), 30).ok).toBe(false);
  });
});
