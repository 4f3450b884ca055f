import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { type SilentReceiver, startSilentReceiver } from "./silent-receiver.js";
import { type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// docs/webhooks.md "Fairness": no account can delay another's webhooks. One account fills its
// endpoint allowance with endpoints on a receiver that accepts connections and never answers,
// queues events for them and redelivers everything it can, while the service's own delivery
// job runs as in production (the default 10 s timeout); another account's event must still
// arrive within about a second.

const DOLLAR = 1_000_000_000n;
// The defaults: WEBHOOK_ENDPOINTS_PER_ACCOUNT and WEBHOOK_ACCOUNT_CONCURRENCY.
const ENDPOINTS = 16;
const ACCOUNT_CONCURRENCY = 8;

describe("webhook delivery between accounts", () => {
  let server: TestServer;
  let receiver: Receiver;
  let silent: SilentReceiver;
  beforeAll(async () => {
    server = await startTestServer({
      env: { ...WEBHOOK_TEST_ENV, WEBHOOK_DELIVERY_INTERVAL_MS: "250", WEBHOOK_TIMEOUT_MS: "10000" },
    });
    receiver = await startReceiver();
    silent = await startSilentReceiver();
  });
  afterAll(async () => {
    // The silent receiver first: its attempts then fail at once instead of holding the job's stop.
    await silent?.close();
    await server?.close();
    await receiver?.close();
  });

  const db = () => server.db.database.prisma;
  const webhooks = (studio: Studio) => server.client(WebhookService, "connect", studio.tokens.OWNER);
  const settle = (studio: Studio, reference: string) =>
    server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN).recordSettlement({
      parent: `accounts/${studio.accountId}/distributorLinks/${studio.linkId}`,
      amount: { currencyCode: "USD", units: 1n, nanos: 0 },
      reference,
    });
  const deliveriesOf = (studio: Studio, state: "PENDING" | "SUCCEEDED") =>
    db().webhookDelivery.findMany({
      where: { state, endpoint: { accountId: studio.accountId } },
      select: { id: true, endpointId: true },
    });

  it("delivers another account's event within about a second while one account's receivers never answer", async () => {
    const attacker = await seedStudio(db(), { outstandingNanos: 1_000n * DOLLAR });
    const victim = await seedStudio(db(), { outstandingNanos: 1_000n * DOLLAR });
    for (let n = 0; n < ENDPOINTS; n += 1) {
      await webhooks(attacker).createWebhookEndpoint({
        parent: `accounts/${attacker.accountId}`,
        webhookEndpoint: { url: silent.url(`/endpoint-${n}`), eventTypes: ["settlement.recorded"] },
      });
    }
    await webhooks(victim).createWebhookEndpoint({
      parent: `accounts/${victim.accountId}`,
      webhookEndpoint: { url: receiver.url, eventTypes: ["settlement.recorded"] },
    });

    // While its receiver still answers, the attacker's events are delivered: deliveries it can
    // redeliver later.
    silent.answering = true;
    for (const n of [1, 2, 3]) await settle(attacker, `answered ${n}`);
    await vi.waitFor(async () => expect(await deliveriesOf(attacker, "SUCCEEDED")).toHaveLength(3 * ENDPOINTS), {
      timeout: 30_000,
      interval: 100,
    });

    // Now it never answers: more events, and every finished delivery redelivered.
    silent.answering = false;
    for (const n of [1, 2, 3]) await settle(attacker, `unanswered ${n}`);
    for (const delivery of await deliveriesOf(attacker, "SUCCEEDED")) {
      await webhooks(attacker)
        .redeliverWebhookDelivery({
          name: `accounts/${attacker.accountId}/webhookEndpoints/${delivery.endpointId}/deliveries/${delivery.id}`,
        })
        .catch(() => undefined);
    }
    await vi.waitFor(() => expect(silent.open()).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });

    const sent = performance.now();
    await settle(victim, "the victim's");
    const arrived = await vi
      .waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 15_000, interval: 10 })
      .then(
        () => performance.now() - sent,
        () => Number.POSITIVE_INFINITY,
      );
    expect(arrived, "ms from the victim's event to its arrival").toBeLessThan(1_000);
    expect(receiver.received[0]?.envelope.account).toBe(`accounts/${victim.accountId}`);
    // The attacker never held more than its account's share of attempts at once.
    expect(silent.peak()).toBeLessThanOrEqual(ACCOUNT_CONCURRENCY);
    expect((await deliveriesOf(attacker, "PENDING")).length).toBeGreaterThan(ACCOUNT_CONCURRENCY);
  }, 90_000);
});
