import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { leaseWebhookDeliveries } from "../../src/store/webhook-delivery-attempts.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { type SilentReceiver, startSilentReceiver } from "./silent-receiver.js";
import { deliveryReplica, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// docs/webhooks.md "Fairness": the caps on attempts in flight per endpoint and per account
// hold across replicas (two delivery jobs on one PostgreSQL database), accounts take turns, and
// an endpoint that never answers is backed off as a whole. PostgreSQL only: PGlite serves one
// connection, so nothing would ever run at the same time.

const CAPS = {
  WEBHOOK_TIMEOUT_MS: "1500",
  WEBHOOK_DELIVERY_CONCURRENCY: "8",
  WEBHOOK_ACCOUNT_CONCURRENCY: "3",
  WEBHOOK_ENDPOINT_CONCURRENCY: "2",
};

describe("webhook attempts in flight", () => {
  let server: TestServer;
  let receiver: Receiver;
  let silent: SilentReceiver;
  beforeAll(async () => {
    server = await startTestServer({ env: { ...WEBHOOK_TEST_ENV, ...CAPS } });
    receiver = await startReceiver();
    silent = await startSilentReceiver();
  });
  afterAll(async () => {
    await silent?.close();
    await server?.close();
    await receiver?.close();
  });

  const db = () => server.db.database.prisma;
  const endpoint = (studio: Studio, url: string) =>
    server.client(WebhookService, "connect", studio.tokens.OWNER).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: { url, eventTypes: ["settlement.recorded"] },
    });
  const settle = (studio: Studio, times = 1) =>
    (async () => {
      for (let n = 0; n < times; n += 1) {
        await server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN).recordSettlement({
          parent: `accounts/${studio.accountId}/distributorLinks/${studio.linkId}`,
          amount: { currencyCode: "USD", units: 1n, nanos: 0 },
          reference: `settlement ${n}`,
        });
      }
    })();
  const studio = () => seedStudio(db(), { outstandingNanos: 1_000_000_000_000n });

  it("caps an endpoint's and an account's attempts across two replicas, while another account's go", async (ctx) => {
    if (!onPostgres(server.db)) ctx.skip();
    const busy = await studio();
    const other = await studio();
    // Four events for /first alone, then one more for /first and /second.
    await endpoint(busy, silent.url("/first"));
    await settle(busy, 4);
    await endpoint(busy, silent.url("/second"));
    await settle(busy);
    await endpoint(other, receiver.url);
    await settle(other);
    const clock = { now: new Date() };
    const [a, b] = [deliveryReplica(db(), clock, CAPS), deliveryReplica(db(), clock, CAPS)];

    const byA = a.runOnce();
    await vi.waitFor(() => expect(silent.open()).toBe(3), { timeout: 5_000, interval: 10 });
    // Replica b finds the account at its cap: it starts nothing while a's attempts hang.
    expect(await b.runOnce()).toEqual([]);
    expect(receiver.received.map((r) => r.envelope.account)).toEqual([`accounts/${other.accountId}`]);
    const results = await byA;
    expect(results.filter((result) => result === "retrying")).toHaveLength(3);
    expect(results.filter((result) => result === "succeeded")).toHaveLength(1);
    expect(silent.peak()).toBe(3);
    expect(silent.peakByPath()).toEqual(
      new Map([
        ["/first", 2],
        ["/second", 1],
      ]),
    );
  });

  it("takes accounts in turn, each weighted by the attempts it has in flight", async (ctx) => {
    if (!onPostgres(server.db)) ctx.skip();
    const [backlogged, newcomer, third] = [await studio(), await studio(), await studio()];
    const targets = await Promise.all(
      [backlogged, newcomer, third].map((s, n) => endpoint(s, silent.url(`/turns-${n}`)).then((e) => e.name)),
    );
    await settle(backlogged, 6);
    await settle(newcomer);
    const lease = (limit: number) =>
      leaseWebhookDeliveries(db(), {
        now: new Date(),
        leaseMs: 60_000,
        limit,
        endpointConcurrency: 3,
        accountConcurrency: 3,
      }).then((tasks) =>
        tasks.map((task) => targets.indexOf(`accounts/${task.accountId}/webhookEndpoints/${task.endpointId}`)),
      );
    // The backlog is older, yet the newcomer's one event is taken in the first round.
    expect((await lease(2)).sort()).toEqual([0, 1]);
    // The backlogged account has one in flight: its second comes after the third account's first.
    await settle(third);
    expect(await lease(1)).toEqual([2]);
    expect(await lease(1)).toEqual([0]);
  });

  it("backs off an endpoint that never answers as a whole, then tries it one attempt at a time", async (ctx) => {
    if (!onPostgres(server.db)) ctx.skip();
    const owner = await studio();
    await endpoint(owner, silent.url("/never"));
    await settle(owner, 10);
    const clock = { now: new Date() };
    // A replica attempts every account's due deliveries: those of the tests above too. What it
    // did to this endpoint is read from its deliveries.
    const job = deliveryReplica(db(), clock, CAPS);
    const attempts = async () =>
      (
        await db().webhookDelivery.findMany({
          where: { endpoint: { accountId: owner.accountId } },
          select: { attemptCount: true, state: true },
        })
      )
        .map((d) => (d.state === "SUCCEEDED" ? "succeeded" : d.attemptCount))
        .sort();

    // Two in flight (the endpoint's cap) time out; then the endpoint waits and the other eight
    // are not attempted at all: it took the pool once, not once a pending delivery.
    await job.runOnce();
    expect(await attempts()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    await job.runOnce();
    expect(await attempts()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    // After its wait (22.5 s at the first level) one attempt probes it while it keeps failing.
    clock.now = new Date(clock.now.getTime() + 30_000);
    await job.runOnce();
    expect(await attempts()).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    await job.runOnce();
    expect(await attempts()).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    // It answers again: after the next wait (45 s) the probe succeeds and the rest follow.
    silent.answering = true;
    clock.now = new Date(clock.now.getTime() + 60_000);
    await job.runOnce();
    expect(await attempts()).toEqual(Array(10).fill("succeeded"));
    expect(silent.peakByPath().get("/never")).toBe(2);
    silent.answering = false;
  });
});
