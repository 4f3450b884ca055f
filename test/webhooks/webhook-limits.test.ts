import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import {
  WebhookDelivery_State,
  WebhookEndpoint_State,
  WebhookService,
} from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { refusal } from "../support/refusal.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { type SilentReceiver, startSilentReceiver } from "./silent-receiver.js";
import { deliveryReplica, drain, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// docs/webhooks.md "Fairness": what one account may ask of the delivery job. At most
// WEBHOOK_ENDPOINTS_PER_ACCOUNT endpoints, at most WEBHOOK_REDELIVERIES_PER_HOUR redeliveries an
// endpoint, and a redelivery of a delivery still pending queues nothing more.

const ENDPOINTS = 3;
const REDELIVERIES = 2;

describe("webhook limits", () => {
  let server: TestServer;
  let receiver: Receiver;
  let silent: SilentReceiver;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        ...WEBHOOK_TEST_ENV,
        WEBHOOK_ENDPOINTS_PER_ACCOUNT: String(ENDPOINTS),
        WEBHOOK_REDELIVERIES_PER_HOUR: String(REDELIVERIES),
      },
    });
    receiver = await startReceiver();
    silent = await startSilentReceiver();
  });
  afterAll(async () => {
    await silent?.close();
    await server?.close();
    await receiver?.close();
  });

  const db = () => server.db.database.prisma;
  const webhooks = (studio: Studio) => server.client(WebhookService, "connect", studio.tokens.OWNER);
  const create = (studio: Studio, url = receiver.url) =>
    webhooks(studio).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: { url, eventTypes: ["settlement.recorded"] },
    });
  const settle = (studio: Studio, reference: string) =>
    server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN).recordSettlement({
      parent: `accounts/${studio.accountId}/distributorLinks/${studio.linkId}`,
      amount: { currencyCode: "USD", units: 1n, nanos: 0 },
      reference,
    });
  const redeliver = (studio: Studio, name: string) => webhooks(studio).redeliverWebhookDelivery({ name });
  const deliveryOf = async (studio: Studio, endpoint: string) => {
    const [delivery] = (await webhooks(studio).listWebhookDeliveries({ parent: endpoint })).webhookDeliveries;
    if (!delivery) throw new Error("no delivery");
    return delivery;
  };

  it("refuses an endpoint past the account's limit with WEBHOOK_ENDPOINT_LIMIT_REACHED, until one is deleted", async () => {
    const studio = await seedStudio(db());
    const made = [];
    for (let n = 0; n < ENDPOINTS; n += 1) made.push(await create(studio));
    const refused = await refusal(create(studio));
    expect(refused).toMatchObject({ code: Code.FailedPrecondition, reason: "WEBHOOK_ENDPOINT_LIMIT_REACHED" });
    expect(refused.message).toMatch(/has 3 webhook endpoints, the most it may have; delete one/);
    // Over REST: 400 with the ErrorInfo and a PreconditionFailure on the account.
    const rest = await server.rest(
      "POST",
      `/v1/accounts/${studio.accountId}/webhookEndpoints`,
      { url: receiver.url, eventTypes: ["settlement.recorded"] },
      { authorization: `Bearer ${studio.tokens.OWNER}` },
    );
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe(Code.FailedPrecondition);
    expect(rest.body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: "WEBHOOK_ENDPOINT_LIMIT_REACHED", metadata: { endpointLimit: "3" } }),
        expect.objectContaining({
          violations: [
            expect.objectContaining({
              type: "WEBHOOK_ENDPOINT_LIMIT_REACHED",
              subject: `accounts/${studio.accountId}`,
            }),
          ],
        }),
      ]),
    );
    // Another account has its own allowance.
    await expect(create(await seedStudio(db()))).resolves.toBeDefined();
    // A disabled endpoint still counts; a deleted one frees its place.
    await webhooks(studio).updateWebhookEndpoint({
      webhookEndpoint: { name: made[0]?.name, state: WebhookEndpoint_State.DISABLED },
      updateMask: { paths: ["state"] },
    });
    expect((await refusal(create(studio))).reason).toBe("WEBHOOK_ENDPOINT_LIMIT_REACHED");
    await webhooks(studio).deleteWebhookEndpoint({ name: made[1]?.name ?? "" });
    await expect(create(studio)).resolves.toMatchObject({ state: WebhookEndpoint_State.ACTIVE });
    expect(await db().webhookEndpoint.count({ where: { accountId: studio.accountId } })).toBe(ENDPOINTS);
  });

  it("counts creations racing each other one after another (PostgreSQL)", async (ctx) => {
    if (!onPostgres(server.db)) ctx.skip();
    const studio = await seedStudio(db());
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => create(studio)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(ENDPOINTS);
    expect(await db().webhookEndpoint.count({ where: { accountId: studio.accountId } })).toBe(ENDPOINTS);
  });

  it("queues a pending delivery once whatever the redeliveries, and at most the hour's redeliveries an endpoint, then 429", async () => {
    const studio = await seedStudio(db(), { outstandingNanos: 1_000_000_000_000n });
    const endpoint = await create(studio);
    const other = await create(studio);
    await settle(studio, "to redeliver");
    const clock = { now: new Date() };
    const job = deliveryReplica(db(), clock, { WEBHOOK_REDELIVERIES_PER_HOUR: String(REDELIVERIES) });
    expect(await drain(job)).toEqual(["succeeded", "succeeded"]);
    const delivery = await deliveryOf(studio, endpoint.name);
    const received = () => receiver.received.filter((r) => r.envelope.account === `accounts/${studio.accountId}`);
    expect(received()).toHaveLength(2);

    // The first redelivery queues it; a second while it is queued leaves it as it is.
    const queued = await redeliver(studio, delivery.name);
    expect(queued).toMatchObject({ state: WebhookDelivery_State.PENDING, attemptCount: 0 });
    expect(await redeliver(studio, delivery.name)).toEqual(queued);
    clock.now = new Date();
    expect(await drain(job)).toEqual(["succeeded"]);
    expect(received()).toHaveLength(3);

    // The second of the hour (the repeat above did not count), then no more.
    await redeliver(studio, delivery.name);
    clock.now = new Date();
    expect(await drain(job)).toEqual(["succeeded"]);
    const limited = await refusal(redeliver(studio, delivery.name));
    expect(limited.code).toBe(Code.ResourceExhausted);
    expect(limited.message).toMatch(/queued its 2 redeliveries this hour; the next can be queued at \d{4}-/);
    const rest = await server.rest(
      "POST",
      `/v1/${delivery.name}:redeliver`,
      {},
      {
        authorization: `Bearer ${studio.tokens.OWNER}`,
      },
    );
    expect(rest.status).toBe(429);
    expect(await deliveryOf(studio, endpoint.name)).toMatchObject({ state: WebhookDelivery_State.SUCCEEDED });
    // Each endpoint has its own hour.
    const otherDelivery = await deliveryOf(studio, other.name);
    await expect(redeliver(studio, otherDelivery.name)).resolves.toMatchObject({
      state: WebhookDelivery_State.PENDING,
    });
  });

  it("leaves a delivery in flight alone when it is redelivered: it is not sent twice, and its attempt's outcome stands", async () => {
    const studio = await seedStudio(db(), { outstandingNanos: 1_000_000_000_000n });
    const endpoint = await create(studio, silent.url("/in-flight"));
    await settle(studio, "in flight");
    const clock = { now: new Date() };
    const job = deliveryReplica(db(), clock, { WEBHOOK_TIMEOUT_MS: "1000" });
    const attempting = job.runOnce();
    await vi.waitFor(() => expect(silent.peakByPath().get("/in-flight")).toBe(1), { timeout: 5_000, interval: 10 });
    const delivery = await deliveryOf(studio, endpoint.name);
    await expect(redeliver(studio, delivery.name)).resolves.toMatchObject({
      state: WebhookDelivery_State.PENDING,
      attemptCount: 0,
    });
    // (The replica also sends what the tests above left queued.)
    const results = await attempting;
    expect(results).toContain("retrying");
    expect(results).not.toContain("lostLease");
    expect(await deliveryOf(studio, endpoint.name)).toMatchObject({
      state: WebhookDelivery_State.PENDING,
      attemptCount: 1,
      error: "no answer within 1000 ms",
    });
    expect(silent.peakByPath().get("/in-flight")).toBe(1);
  });
});
