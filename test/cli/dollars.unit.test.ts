import { describe, expect, it } from "vitest";
import { formatMoney, parseDollars } from "../../src/cli/dollars.js";

describe("dollars on the command line", () => {
  it.each([
    ["12.50", 12n, 500_000_000],
    ["12.5", 12n, 500_000_000],
    ["12", 12n, 0],
    ["0.01", 0n, 10_000_000],
    ["0", 0n, 0],
    ["0.99", 0n, 990_000_000],
    [" 7.05 ", 7n, 50_000_000],
    ["92233720368547758070.10", 92233720368547758070n, 100_000_000],
  ])("reads %s as %s units %s nanos", (text, units, nanos) => {
    expect(parseDollars(text)).toEqual({ currencyCode: "USD", units, nanos });
  });

  it.each(["12.505", "1.999", "-1", "+1", "1e3", "12.", ".5", "1,50", "", "abc", "$5", "01.00", "0x10", "Infinity"])(
    "refuses %j",
    (text) => {
      expect(() => parseDollars(text)).toThrow(/dollars/);
    },
  );

  it.each([
    [{ currencyCode: "USD", units: 12n, nanos: 500_000_000 }, "12.50 USD"],
    [{ currencyCode: "USD", units: 0n, nanos: 3_000_000 }, "0.003 USD"],
    [{ currencyCode: "USD", units: 1n, nanos: 0 }, "1.00 USD"],
    [{ currencyCode: "USD", units: -2n, nanos: -10_000_000 }, "-2.01 USD"],
  ])("writes %o as %s", (money, text) => {
    expect(formatMoney(money)).toBe(text);
  });
});
