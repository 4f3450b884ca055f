import { describe, expect, it } from "vitest";
import { allowRedelivery } from "../../src/domain/webhook-redelivery.js";

// docs/webhooks.md "Fairness": at most WEBHOOK_REDELIVERIES_PER_HOUR redeliveries an endpoint,
// counted in the hour that began with the first of them.

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 29, 12, 0) + minutes * 60_000);

describe("allowRedelivery", () => {
  it("starts an hour with the endpoint's first redelivery and counts within it", () => {
    expect(allowRedelivery({ start: null, count: 0 }, { now: at(0), perHour: 2 })).toEqual({
      allowed: true,
      window: { start: at(0), count: 1 },
    });
    expect(allowRedelivery({ start: at(0), count: 1 }, { now: at(30), perHour: 2 })).toEqual({
      allowed: true,
      window: { start: at(0), count: 2 },
    });
  });

  it("refuses past the limit until the hour is over, and says when the next fits", () => {
    expect(allowRedelivery({ start: at(0), count: 2 }, { now: at(59), perHour: 2 })).toEqual({
      allowed: false,
      nextAllowed: at(60),
    });
    expect(allowRedelivery({ start: at(0), count: 2 }, { now: at(60), perHour: 2 })).toEqual({
      allowed: true,
      window: { start: at(60), count: 1 },
    });
  });
});
