import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { drain, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// Two replicas (two service instances on one PostgreSQL database) share the delivery
// work through their leases (FOR UPDATE SKIP LOCKED) and deliver each event once. PostgreSQL
// only: PGlite serves one connection, so nothing would ever run at the same time.

const EVENTS = 40;

describe("webhook delivery by two replicas", () => {
  let a: TestServer;
  let b: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    a = await startTestServer({ env: WEBHOOK_TEST_ENV });
    b = await startTestServer({ env: WEBHOOK_TEST_ENV, db: a.db });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it("delivers each event once", async (ctx) => {
    if (!onPostgres(a.db)) ctx.skip();
    const db = a.db.database.prisma;
    const studio = await seedStudio(db, { outstandingNanos: 1_000_000_000_000n });
    await a.client(WebhookService, "connect", studio.tokens.OWNER).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: { url: receiver.url, eventTypes: ["settlement.recorded"] },
    });
    const operators = [a, b].map((server) => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN));
    for (let n = 0; n < EVENTS; n += 1) {
      await operators[n % 2]?.recordSettlement({
        parent: `accounts/${studio.accountId}/distributorLinks/${studio.linkId}`,
        amount: { currencyCode: "USD", units: 1n, nanos: 0 },
        reference: `wire ${n}`,
      });
    }
    const [byA, byB] = await Promise.all([drain(a.app.webhookDelivery), drain(b.app.webhookDelivery)]);
    expect([...byA, ...byB].filter((result) => result === "succeeded")).toHaveLength(EVENTS);
    const ids = receiver.received.map((r) => r.envelope.id);
    expect(ids).toHaveLength(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
    const deliveries = await db.webhookDelivery.findMany({ select: { state: true, attemptCount: true } });
    expect(deliveries).toHaveLength(EVENTS);
    expect(deliveries.every((d) => d.state === "SUCCEEDED" && d.attemptCount === 1)).toBe(true);
  });
});
