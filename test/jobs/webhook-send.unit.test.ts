import { describe, expect, it } from "vitest";
import { sendDelivery } from "../../src/jobs/webhook-send.js";
import { resolveWebhookTarget } from "../../src/usecases/webhooks/address-guard.js";

// docs/webhooks.md "Fairness": WEBHOOK_TIMEOUT_MS bounds the whole attempt, the resolution of
// the endpoint's host included, so a host whose name server never answers holds its slot no
// longer than a receiver that never answers.

const task = { url: "https://hooks.example.com/encore", payload: "{}", eventId: "evt_1" };
const config = { allowHttp: false, allowAddresses: new Set<never>(), timeoutMs: 50, dnsServers: undefined };

describe("sendDelivery", () => {
  it("gives up on a host that does not resolve within the timeout, as a failed attempt", async () => {
    const outcome = await sendDelivery({
      task,
      secrets: ["whsec_test"],
      now: new Date(),
      config,
      resolve: () => new Promise(() => {}),
    });
    expect(outcome).toMatchObject({ statusCode: 0, responseExcerpt: "" });
    expect(outcome.error).toMatch(/^no answer within 50 ms \(the host did not resolve in time\)$/);
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(45);
  });

  it("records a refused address as the attempt's error, connecting nowhere", async () => {
    const outcome = await sendDelivery({
      task: { ...task, url: "https://10.0.0.7/encore" },
      secrets: ["whsec_test"],
      now: new Date(),
      config,
      resolve: resolveWebhookTarget,
    });
    expect(outcome).toMatchObject({ statusCode: 0, latencyMs: 0 });
    expect(outcome.error).toMatch(/^URL refused: .*private address/);
  });
});
