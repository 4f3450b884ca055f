import { describe, expect, it } from "vitest";
import { HOUR_MS, hourFloor, meterSpan, usageBetween } from "../../src/domain/metering.js";

const DOLLAR = 1_000_000_000n;
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);

describe("usageBetween", () => {
  it.each([
    ["an hour at $1", DOLLAR, T0, T0 + HOUR_MS, DOLLAR],
    ["a minute at $0.60", (DOLLAR * 6n) / 10n, T0, T0 + 60_000, 10_000_000n],
    ["nothing for an empty span", DOLLAR, T0, T0, 0n],
    ["nothing for a backward span", DOLLAR, T0 + 1, T0, 0n],
    ["nothing at no price", 0n, T0, T0 + HOUR_MS, 0n],
  ])("%s", (_, price, from, to, expected) => {
    expect(usageBetween(price, from, to)).toBe(expected);
  });

  it("adds up exactly however a period is cut (no rounding drift)", () => {
    const price = 1_000_000_007n; // an awkward price: a third of a nano per ms does not divide
    const whole = usageBetween(price, T0, T0 + 10 * HOUR_MS);
    let sum = 0n;
    for (let t = T0; t < T0 + 10 * HOUR_MS; t += 7_777)
      sum += usageBetween(price, t, Math.min(t + 7_777, T0 + 10 * HOUR_MS));
    expect(sum).toBe(whole);
  });
});

describe("meterSpan", () => {
  it("cuts at hour boundaries, each piece dated at its end", () => {
    const pieces = meterSpan({
      hourlyPriceNanos: DOLLAR,
      fromMs: T0 + HOUR_MS / 2,
      toMs: T0 + 2 * HOUR_MS,
      maxPieces: 10,
    });
    expect(pieces).toEqual([
      { startMs: T0 + HOUR_MS / 2, endMs: T0 + HOUR_MS, amountNanos: DOLLAR / 2n },
      { startMs: T0 + HOUR_MS, endMs: T0 + 2 * HOUR_MS, amountNanos: DOLLAR },
    ]);
  });

  it("stops at maxPieces and leaves the rest", () => {
    const pieces = meterSpan({ hourlyPriceNanos: DOLLAR, fromMs: T0, toMs: T0 + 48 * HOUR_MS, maxPieces: 24 });
    expect(pieces).toHaveLength(24);
    expect(pieces.at(-1)?.endMs).toBe(T0 + 24 * HOUR_MS);
  });

  it("hourFloor is the start of the hour", () => {
    expect(hourFloor(T0 + HOUR_MS + 5)).toBe(T0 + HOUR_MS);
  });
});
