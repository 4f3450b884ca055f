import { durationFromMs, type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../../clients/ts/src/webhook-signature.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import {
  WebhookDelivery_State,
  WebhookEndpoint_State,
  WebhookService,
} from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import type { Role } from "../../src/domain/permissions.js";
import { refusal } from "../support/refusal.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { deliveryReplica, drain, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// Delivery (retries with backoff, the same event id after an outage, disabling an
// endpoint that keeps failing, secret rotation), what the API shows of it, the address rules
// and the role table. Time moves on a test clock: no assertion waits for a timer.

const DOLLAR = 1_000_000_000n;
const dollars = (units: number) => ({ currencyCode: "USD", units: BigInt(units), nanos: 0 });
const ms = (time: Timestamp | undefined) => (time === undefined ? Number.NaN : timestampDate(time).getTime());

describe("webhook delivery", () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startTestServer({ env: WEBHOOK_TEST_ENV });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const db = () => server.db.database.prisma;
  const webhooks = (studio: Studio, role: Role = "OWNER") =>
    server.client(WebhookService, "connect", studio.tokens[role]);
  const operator = () => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);

  async function studioWithEndpoint(url = receiver.url) {
    const studio = await seedStudio(db(), { outstandingNanos: 100n * DOLLAR });
    const endpoint = await webhooks(studio).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: { url, eventTypes: ["settlement.recorded"] },
    });
    const settle = (reference: string) =>
      operator().recordSettlement({
        parent: `accounts/${studio.accountId}/distributorLinks/${studio.linkId}`,
        amount: dollars(1),
        reference,
      });
    return { studio, endpoint, settle };
  }

  const receivedBy = (studio: Studio) =>
    receiver.received.filter((r) => r.envelope.account === `accounts/${studio.accountId}`);

  it("retries with backoff while the receiver is down; once up it gets the event with the same id", async () => {
    const { studio, endpoint, settle } = await studioWithEndpoint();
    await settle("outage");
    // The replica's clock starts when the event was committed.
    const clock = { now: new Date() };
    const job = deliveryReplica(db(), clock);
    receiver.status = 503;
    try {
      expect(await job.runOnce()).toEqual(["retrying"]);
      const [failed] = (await webhooks(studio, "VIEWER").listWebhookDeliveries({ parent: endpoint.name }))
        .webhookDeliveries;
      expect(failed).toMatchObject({ state: WebhookDelivery_State.PENDING, attemptCount: 1, statusCode: 503 });
      expect(failed?.latency).toBeDefined();
      expect(failed?.responseExcerpt.startsWith("down for maintenance")).toBe(true);
      expect([...(failed?.responseExcerpt ?? "")].length).toBe(256);
      // Backoff: 30 s nominal after the first failure, jittered to [15 s, 30 s] (0.5 here: 22.5 s).
      const next = ms(failed?.nextAttemptTime);
      expect(next - clock.now.getTime()).toBe(22_500);
      expect(await job.runOnce()).toEqual([]);
      clock.now = new Date(next);
      expect(await job.runOnce()).toEqual(["retrying"]);
      const second = await webhooks(studio).getWebhookDelivery({ name: failed?.name ?? "" });
      expect(second.attemptCount).toBe(2);
      expect(ms(second.nextAttemptTime) - next).toBe(45_000);
      clock.now = new Date(ms(second.nextAttemptTime));
    } finally {
      receiver.status = 200;
    }
    expect(await job.runOnce()).toEqual(["succeeded"]);
    const got = receivedBy(studio);
    expect(got).toHaveLength(1);
    const [delivery] = (await webhooks(studio).listWebhookDeliveries({ parent: endpoint.name })).webhookDeliveries;
    expect(delivery).toMatchObject({ state: WebhookDelivery_State.SUCCEEDED, attemptCount: 3, statusCode: 200 });
    expect(delivery?.eventId).toBe(got[0]?.envelope.id);
    expect(delivery?.nextAttemptTime).toBeUndefined();
    expect(await drain(job)).toEqual([]);

    // Redelivered on demand: the same event, the same id and body.
    await webhooks(studio, "ADMIN").redeliverWebhookDelivery({ name: delivery?.name ?? "" });
    expect(await job.runOnce()).toEqual(["succeeded"]);
    const again = receivedBy(studio);
    expect(again).toHaveLength(2);
    expect(again[1]?.envelope.id).toBe(again[0]?.envelope.id);
    expect(again[1]?.body).toBe(again[0]?.body);
  });

  it("gives a delivery up after the retry window, and disables an endpoint failing for too long", async () => {
    const { studio, endpoint, settle } = await studioWithEndpoint();
    const env = { WEBHOOK_RETRY_WINDOW_MS: "60000", WEBHOOK_DISABLE_AFTER_MS: "3600000" };
    const clock = { now: new Date() };
    const job = deliveryReplica(db(), clock, env);
    receiver.status = 500;
    try {
      await settle("first");
      clock.now = new Date();
      expect(await job.runOnce()).toEqual(["retrying"]); // waits 22.5 s
      clock.now = new Date(clock.now.getTime() + 30_000);
      expect(await job.runOnce()).toEqual(["retrying"]); // 30 s spent; waits 45 s
      clock.now = new Date(clock.now.getTime() + 60_000);
      expect(await job.runOnce()).toEqual(["gaveUp"]); // 90 s spent of a 60 s window
      const [given] = (await webhooks(studio).listWebhookDeliveries({ parent: endpoint.name })).webhookDeliveries;
      expect(given).toMatchObject({ state: WebhookDelivery_State.FAILED, attemptCount: 3 });
      const failing = await webhooks(studio).getWebhookEndpoint({ name: endpoint.name });
      expect(failing.state).toBe(WebhookEndpoint_State.ACTIVE);
      expect(failing.failingSinceTime).toBeDefined();

      // An hour after its first failure, the next failure disables it; the studio sees why.
      clock.now = new Date(clock.now.getTime() + 3_600_000);
      await settle("second");
      await settle("third");
      const results = await job.runOnce();
      expect(results).toContain("endpointDisabled");
      const disabled = await webhooks(studio, "VIEWER").getWebhookEndpoint({ name: endpoint.name });
      expect(disabled.state).toBe(WebhookEndpoint_State.DISABLED);
      expect(disabled.disabledReason).toMatch(/failed/);
      const deliveries = (await webhooks(studio).listWebhookDeliveries({ parent: endpoint.name })).webhookDeliveries;
      expect(deliveries.map((d) => d.state)).toEqual([
        WebhookDelivery_State.FAILED,
        WebhookDelivery_State.FAILED,
        WebhookDelivery_State.FAILED,
      ]);
      // Nothing more is queued for it; a redelivery is refused until it is enabled again.
      await settle("fourth");
      expect(await db().webhookDelivery.count({ where: { endpointId: endpoint.name.split("/").pop() } })).toBe(3);
      expect(
        await refusal(webhooks(studio).redeliverWebhookDelivery({ name: deliveries[0]?.name ?? "" })),
      ).toMatchObject({
        code: Code.FailedPrecondition,
        reason: "WEBHOOK_ENDPOINT_DISABLED",
      });
    } finally {
      receiver.status = 200;
    }
    const enabled = await webhooks(studio).updateWebhookEndpoint({
      webhookEndpoint: { name: endpoint.name, state: WebhookEndpoint_State.ACTIVE },
      updateMask: { paths: ["state"] },
    });
    expect(enabled).toMatchObject({ state: WebhookEndpoint_State.ACTIVE, disabledReason: "" });
    expect(enabled.failingSinceTime).toBeUndefined();
    const [newest] = (await webhooks(studio).listWebhookDeliveries({ parent: endpoint.name })).webhookDeliveries;
    await webhooks(studio).redeliverWebhookDelivery({ name: newest?.name ?? "" });
    expect(await job.runOnce()).toEqual(["succeeded"]);
    expect(receivedBy(studio)).toHaveLength(1);
  });

  it("signs with both secrets during a rotation's overlap, then with the new one alone", async () => {
    const { studio, endpoint, settle } = await studioWithEndpoint();
    const clock = { now: new Date() };
    const job = deliveryReplica(db(), clock);
    const original = endpoint.signingSecret;
    expect((await webhooks(studio).getWebhookEndpoint({ name: endpoint.name })).signingSecret).toBe("");
    const rotated = await webhooks(studio, "ADMIN").rotateWebhookEndpointSecret({
      name: endpoint.name,
      overlap: durationFromMs(3_600_000),
    });
    expect(rotated.signingSecret).toMatch(/^whsec_/);
    expect(rotated.signingSecret).not.toBe(original);
    await settle("during overlap");
    clock.now = new Date();
    await drain(job);
    const [during] = receivedBy(studio);
    expect(during?.signature.match(/v1=/g)).toHaveLength(2);
    const check = (secret: string, r = during) =>
      verifyWebhookSignature({
        secret,
        body: r?.body ?? "",
        header: r?.signature ?? "",
        nowSeconds: clock.now.getTime() / 1000,
      });
    expect(check(original)).toBe(true);
    expect(check(rotated.signingSecret)).toBe(true);
    expect(check("whsec_someone-else")).toBe(false);

    clock.now = new Date(clock.now.getTime() + 3_600_001);
    await settle("after overlap");
    await drain(deliveryReplica(db(), clock));
    const after = receivedBy(studio)[1];
    expect(after?.signature.match(/v1=/g)).toHaveLength(1);
    expect(check(original, after)).toBe(false);
    expect(check(rotated.signingSecret, after)).toBe(true);
    expect(
      await refusal(
        webhooks(studio).rotateWebhookEndpointSecret({ name: endpoint.name, overlap: durationFromMs(8 * 86_400_000) }),
      ),
    ).toMatchObject({ code: Code.InvalidArgument });
  });

  it("refuses URLs that resolve to private, link-local or unspecified addresses, and non-https ones where http is not allowed", async () => {
    const studio = await seedStudio(db());
    for (const url of [
      "http://10.0.0.7/hook",
      "http://192.168.1.1/hook",
      "http://172.20.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]/hook",
      "http://[fd00::1]/hook",
      "http://[::ffff:10.0.0.1]/hook",
      "http://0.0.0.0/hook",
      "http://user:pass@127.0.0.1/hook",
      "ftp://127.0.0.1/hook",
      "not a url",
    ]) {
      const created = webhooks(studio).createWebhookEndpoint({
        parent: `accounts/${studio.accountId}`,
        webhookEndpoint: { url, eventTypes: ["settlement.recorded"] },
      });
      expect(await refusal(created), url).toMatchObject({ code: Code.InvalidArgument });
    }
    const bad = webhooks(studio).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: { url: receiver.url, eventTypes: ["purchase.exploded"] },
    });
    expect(await refusal(bad)).toMatchObject({ code: Code.InvalidArgument });

    const strict = await startTestServer({ db: server.db, env: { WEBHOOK_ALLOW_ADDRESSES: "loopback" } });
    try {
      const refusedHttp = strict.client(WebhookService, "connect", studio.tokens.OWNER).createWebhookEndpoint({
        parent: `accounts/${studio.accountId}`,
        webhookEndpoint: { url: receiver.url, eventTypes: ["settlement.recorded"] },
      });
      expect((await refusal(refusedHttp)).message).toMatch(/https/);
    } finally {
      await strict.close();
    }
  });

  it("lets owner and admin manage endpoints, billing and viewer read them, and no one else see them", async () => {
    const { studio, endpoint } = await studioWithEndpoint();
    const outsider = await seedStudio(db());
    const parent = `accounts/${studio.accountId}`;
    // Thunks, each called when its answer is awaited: a refusal made before its turn would be
    // an unhandled rejection meanwhile.
    const manage = (role: Role) => [
      () =>
        webhooks(studio, role).createWebhookEndpoint({
          parent,
          webhookEndpoint: { url: receiver.url, eventTypes: ["purchase.credited"] },
        }),
      () =>
        webhooks(studio, role).updateWebhookEndpoint({
          webhookEndpoint: { name: endpoint.name, description: `by ${role}` },
          updateMask: { paths: ["description"] },
        }),
      () => webhooks(studio, role).rotateWebhookEndpointSecret({ name: endpoint.name, overlap: durationFromMs(0) }),
    ];
    const read = (client: ReturnType<typeof webhooks>) => [
      () => client.listWebhookEndpoints({ parent }),
      () => client.getWebhookEndpoint({ name: endpoint.name }),
      () => client.listWebhookDeliveries({ parent: endpoint.name }),
    ];
    for (const role of ["OWNER", "ADMIN"] as const) {
      for (const call of [...manage(role), ...read(webhooks(studio, role))])
        await expect(call()).resolves.toBeDefined();
    }
    for (const role of ["BILLING", "VIEWER"] as const) {
      for (const call of manage(role)) expect((await refusal(call())).code).toBe(Code.NotFound);
      for (const call of read(webhooks(studio, role))) await expect(call()).resolves.toBeDefined();
      expect((await refusal(webhooks(studio, role).deleteWebhookEndpoint({ name: endpoint.name }))).code).toBe(
        Code.NotFound,
      );
    }
    for (const call of read(webhooks(outsider))) expect((await refusal(call())).code).toBe(Code.NotFound);
    // Reads never carry a secret.
    const listed = await webhooks(studio, "VIEWER").listWebhookEndpoints({ parent });
    expect(listed.webhookEndpoints.length).toBeGreaterThan(1);
    expect(listed.webhookEndpoints.every((e) => e.signingSecret === "")).toBe(true);
    await webhooks(studio, "ADMIN").deleteWebhookEndpoint({ name: endpoint.name });
    expect((await refusal(webhooks(studio).getWebhookEndpoint({ name: endpoint.name }))).code).toBe(Code.NotFound);
  });
  it("checks the address again at delivery time, and sends nothing to one no longer allowed", async () => {
    const { studio, endpoint, settle } = await studioWithEndpoint();
    await settle("to loopback");
    const clock = { now: new Date() };
    // A replica whose operator no longer allows loopback: the endpoint's host now resolves to a
    // refused address, as after a DNS rebinding.
    const strict = deliveryReplica(db(), clock, { WEBHOOK_ALLOW_ADDRESSES: "" });
    expect(await strict.runOnce()).toEqual(["retrying"]);
    const [attempt] = (await webhooks(studio).listWebhookDeliveries({ parent: endpoint.name })).webhookDeliveries;
    expect(attempt).toMatchObject({ statusCode: 0, attemptCount: 1 });
    expect(attempt?.error).toMatch(/refused.*loopback/);
    expect(receivedBy(studio)).toEqual([]);
  });
});
