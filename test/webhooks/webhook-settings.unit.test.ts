import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";

// docs/webhooks.md "Fairness": the numbers of fair delivery are settings, checked at start.

describe("webhook fairness settings", () => {
  it("defaults to 32 attempts a replica, 4 an endpoint, 8 an account, 16 endpoints, 100 redeliveries an hour", () => {
    const { webhooks } = loadConfig({});
    expect(webhooks.concurrency).toEqual({ replica: 32, endpoint: 4, account: 8 });
    expect(webhooks.endpointsPerAccount).toBe(16);
    expect(webhooks.redeliveriesPerHour).toBe(100);
  });

  it("refuses an account share that could take every slot of a replica, or an endpoint share above it", () => {
    expect(() => loadConfig({ WEBHOOK_DELIVERY_CONCURRENCY: "8", WEBHOOK_ACCOUNT_CONCURRENCY: "8" })).toThrow(
      /^invalid configuration: WEBHOOK_ACCOUNT_CONCURRENCY must be less than WEBHOOK_DELIVERY_CONCURRENCY/,
    );
    expect(() => loadConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: "9" })).toThrow(
      /^invalid configuration: WEBHOOK_ENDPOINT_CONCURRENCY must be at most WEBHOOK_ACCOUNT_CONCURRENCY/,
    );
    expect(() => loadConfig({ WEBHOOK_ENDPOINTS_PER_ACCOUNT: "0" })).toThrow(/WEBHOOK_ENDPOINTS_PER_ACCOUNT/);
    expect(() => loadConfig({ WEBHOOK_REDELIVERIES_PER_HOUR: "many" })).toThrow(/WEBHOOK_REDELIVERIES_PER_HOUR/);
  });
});
