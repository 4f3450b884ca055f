import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BillingService,
  CheckoutSession_State,
  LedgerEntry_Type,
} from "../../gen/encore/billing/v1/billing_service_pb.js";
import {
  PAYMENT_SIGNATURE_HEADER,
  PAYMENT_WEBHOOK_PATH,
  signPaymentPayload,
} from "../../src/platform/billing/payment-signature.js";
import { signPaymentEvent } from "../../src/platform/billing/sign-payment-event.js";
import { DOLLAR } from "../support/seed.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const SECRET = "whsec-test-0123456789abcdefghij";
const usd = (units: bigint) => ({ currencyCode: "USD", units, nanos: 0 });
const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe("POST /v1/billing/webhooks/payments: the provider's checkout.paid credits once", () => {
  let server: TestServer;
  let studio: Studio;
  beforeAll(async () => {
    server = await startTestServer({ env: { PAYMENT_WEBHOOK_SECRET: SECRET } });
    studio = await seedStudio(server.db.database.prisma, { balanceNanos: 5n * DOLLAR });
  });
  afterAll(() => server.close());

  const db = () => server.db.database.prisma;
  const billing = () => server.client(BillingService, "connect", studio.tokens.BILLING);
  const project = () => `accounts/${studio.accountId}/projects/${studio.projectId}`;
  const balance = async () => (await db().project.findUniqueOrThrow({ where: { id: studio.projectId } })).balanceNanos;
  const topUps = (sessionId: string) => db().ledgerEntry.count({ where: { checkoutSessionId: sessionId } });
  const open = async (amount = usd(20n)) => {
    const session = await billing().createCheckoutSession({
      parent: `accounts/${studio.accountId}`,
      checkoutSession: { project: project(), amount },
    });
    return { name: session.name, id: session.name.split("/").pop() as string };
  };
  const deliver = (checkoutSession: string, options: { secret?: string; signedAt?: Date } = {}) =>
    signPaymentEvent({ baseUrl: server.baseUrl, secret: SECRET, checkoutSession, ...options });
  const post = (body: string, headers: Record<string, string>) =>
    server.rest("POST", PAYMENT_WEBHOOK_PATH, body, headers);

  it("credits the project once: a DEVELOPER_TOP_UP entry, the balance up, the session COMPLETE", async () => {
    const session = await open();
    const before = await balance();

    const reply = await deliver(session.name);
    expect(reply).toEqual({ status: 200, body: { result: "credited" } });
    expect(await balance()).toBe(before + 20n * DOLLAR);
    const read = await billing().getCheckoutSession({ name: session.name });
    expect(read.state).toBe(CheckoutSession_State.COMPLETE);
    const ledger = await billing().listLedgerEntries({ parent: project() });
    const entries = ledger.ledgerEntries.filter((entry) => entry.source === session.name);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: LedgerEntry_Type.DEVELOPER_TOP_UP, amount: usd(20n) });

    // Providers redeliver: the same event answers 200 again and credits nothing more.
    expect(await deliver(session.name)).toEqual({ status: 200, body: { result: "duplicate" } });
    expect(await balance()).toBe(before + 20n * DOLLAR);
    expect(await topUps(session.id)).toBe(1);
  });

  it("credits once when deliveries race (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    const session = await open(usd(7n));
    const before = await balance();
    const replies = await Promise.all(Array.from({ length: 8 }, () => deliver(session.name)));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect(replies.filter((reply) => (reply.body as { result: string }).result === "credited")).toHaveLength(1);
    expect(await balance()).toBe(before + 7n * DOLLAR);
    expect(await topUps(session.id)).toBe(1);
  });

  const event = (name: string) => JSON.stringify({ type: "checkout.paid", checkoutSession: name });
  const signature = (body: string, secret = SECRET, at = new Date()) =>
    signPaymentPayload({ secret, body, timestampSeconds: at.getTime() / 1000 });
  const unauthenticated: [string, (name: string) => [string, Record<string, string>]][] = [
    ["a wrong secret", (name) => [event(name), { [PAYMENT_SIGNATURE_HEADER]: signature(event(name), `${SECRET}x`) }]],
    [
      "a stale timestamp",
      (name) => [event(name), { [PAYMENT_SIGNATURE_HEADER]: signature(event(name), SECRET, minutes(-6)) }],
    ],
    [
      "a future timestamp",
      (name) => [event(name), { [PAYMENT_SIGNATURE_HEADER]: signature(event(name), SECRET, minutes(6)) }],
    ],
    ["no signature header", (name) => [event(name), {}]],
    ["a garbled header", () => ["{}", { [PAYMENT_SIGNATURE_HEADER]: "t=abc,v1=zz" }]],
    [
      "a body other than the signed one",
      (name) => [event(name), { [PAYMENT_SIGNATURE_HEADER]: signature(event(`${name}x`)) }],
    ],
  ];
  it.each(unauthenticated)("answers %s with 401 code 16 and credits nothing", async (_, request) => {
    const session = await open();
    const before = await balance();
    const [body, headers] = request(session.name);
    const reply = await post(body, headers);
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: 16, details: [] });
    expect(await balance()).toBe(before);
    expect((await billing().getCheckoutSession({ name: session.name })).state).toBe(CheckoutSession_State.OPEN);
  });

  it("answers a signed body that is not JSON with 400 code 3", async () => {
    const body = '{"type":"checkout.paid",';
    const reply = await post(body, { [PAYMENT_SIGNATURE_HEADER]: signature(body) });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 3 });
  });

  it("answers a body over 64 KiB with 400 code 3", async () => {
    const body = JSON.stringify({ type: "checkout.paid", padding: "x".repeat(64 * 1024) });
    const reply = await post(body, { [PAYMENT_SIGNATURE_HEADER]: signature(body) });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 3 });
  });

  it("acknowledges but never credits an expired session", async () => {
    const session = await open();
    await db().checkoutSession.update({ where: { id: session.id }, data: { state: "EXPIRED" } });
    const before = await balance();
    expect(await deliver(session.name)).toEqual({
      status: 200,
      body: { result: "ignored", reason: "checkout session expired" },
    });
    expect(await balance()).toBe(before);
    expect(await topUps(session.id)).toBe(0);
    expect((await billing().getCheckoutSession({ name: session.name })).state).toBe(CheckoutSession_State.EXPIRED);
  });

  it("acknowledges but never credits an unknown session, or a session named under another account", async () => {
    const session = await open();
    const before = await balance();
    const unknown = await deliver(`accounts/${studio.accountId}/checkoutSessions/nope`);
    const elsewhere = await deliver(`accounts/someone-else/checkoutSessions/${session.id}`);
    for (const reply of [unknown, elsewhere]) {
      expect(reply).toEqual({ status: 200, body: { result: "ignored", reason: "unknown checkout session" } });
    }
    expect(await balance()).toBe(before);
    expect((await billing().getCheckoutSession({ name: session.name })).state).toBe(CheckoutSession_State.OPEN);
  });

  it("is not an RPC: answers no-store JSON, and other event types are acknowledged and ignored", async () => {
    const body = JSON.stringify({ type: "checkout.refunded", checkoutSession: "accounts/a/checkoutSessions/b" });
    const reply = await post(body, { [PAYMENT_SIGNATURE_HEADER]: signature(body) });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(reply.body).toMatchObject({ result: "ignored" });
  });
});
