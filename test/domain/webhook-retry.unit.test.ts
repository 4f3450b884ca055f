import { describe, expect, it } from "vitest";
import { endpointBackoffMs, nextRetryDelayMs, nominalDelayMs } from "../../src/domain/webhook-retry.js";

const policy = { baseMs: 30_000, maxMs: 6 * 3_600_000, windowMs: 3 * 24 * 3_600_000 };

describe("webhook retry backoff", () => {
  it("doubles from the base up to the maximum", () => {
    expect([1, 2, 3, 4].map((n) => nominalDelayMs(policy, n))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(nominalDelayMs(policy, 12)).toBe(policy.maxMs);
    expect(nominalDelayMs(policy, 1000)).toBe(policy.maxMs);
  });

  it("draws each wait between half and all of its nominal length", () => {
    expect(nextRetryDelayMs(policy, 1, 0)).toBe(15_000);
    expect(nextRetryDelayMs(policy, 1, 0.5)).toBe(22_500);
    expect(nextRetryDelayMs(policy, 1, 0.999_999)).toBeLessThanOrEqual(30_000);
  });

  it("gives up once the nominal waits cover the window: about three days, about twenty attempts", () => {
    let attempts = 1;
    let total = 0;
    for (;;) {
      const delay = nextRetryDelayMs(policy, attempts, 1);
      if (delay === undefined) break;
      total += delay;
      attempts += 1;
    }
    expect(total).toBeGreaterThanOrEqual(policy.windowMs);
    expect(total).toBeLessThan(policy.windowMs + policy.maxMs);
    expect(attempts).toBeGreaterThan(15);
    expect(attempts).toBeLessThan(25);
  });

  it('backs a whole endpoint off by the same doubling and jitter, and never gives it up (docs/webhooks.md "Fairness")', () => {
    expect([1, 2, 3].map((level) => endpointBackoffMs(policy, level, 0.5))).toEqual([22_500, 45_000, 90_000]);
    expect(endpointBackoffMs(policy, 1, 0)).toBe(15_000);
    expect(endpointBackoffMs(policy, 500, 0.999_999)).toBeLessThanOrEqual(policy.maxMs);
    expect(endpointBackoffMs(policy, 500, 0)).toBe(policy.maxMs / 2);
  });
});
