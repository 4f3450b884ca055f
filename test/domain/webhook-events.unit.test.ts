import { describe, expect, it } from "vitest";
import { isWebhookEventType, runwayCrossing, WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";

describe("webhook event types", () => {
  it("are known by name", () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(12);
    expect(isWebhookEventType("purchase.credited")).toBe(true);
    expect(isWebhookEventType("purchase.exploded")).toBe(false);
  });
});

describe("runway alert crossings", () => {
  it("fires once when the runway falls below the threshold, and re-arms when it is back", () => {
    expect(runwayCrossing(2n, 3, false)).toBe("fire");
    expect(runwayCrossing(1n, 3, true)).toBe("none");
    expect(runwayCrossing(3n, 3, true)).toBe("clear");
    expect(runwayCrossing(3n, 3, false)).toBe("none");
  });

  it("never fires with the alert off or the runway unknown (nothing spent), and clears then", () => {
    expect(runwayCrossing(0n, 0, false)).toBe("none");
    expect(runwayCrossing(undefined, 3, false)).toBe("none");
    expect(runwayCrossing(undefined, 3, true)).toBe("clear");
    expect(runwayCrossing(0n, 0, true)).toBe("clear");
  });
});
