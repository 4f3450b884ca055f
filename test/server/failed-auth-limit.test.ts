import { createHash } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import {
  PAYMENT_SIGNATURE_HEADER,
  PAYMENT_WEBHOOK_PATH,
  signPaymentPayload,
} from "../../src/platform/billing/payment-signature.js";
import { requestIdClients } from "../audit/audit-fixture.js";
import { postFrom } from "../support/post-from.js";
import { parsePrometheusText, sample } from "../support/prometheus-text.js";
import { refusal } from "../support/refusal.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { type SentStatement, watchStatements } from "../support/sent-statements.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// docs/abuse-limits.md "Failed authentication": past RATE_LIMIT_FAILED_AUTH_PER_ADDRESS failures
// in a window, every call of the address that needs a credential is 429 (code 8) before any
// work. "No work" is read off the statements the pg driver sends: a 401 asks the database for
// the credential's hash and counts itself in the audit log under its request id; a 429 sends
// neither. (These run on PostgreSQL in CI; on PGlite no statement is seen and only the answers
// are checked.)

const N = 3;
const WRONG_KEY = "ek_wrong0123456789abcdefghijklmnopqrstuvwxyzABC";
const WRONG_SESSION = "es_wrong0123456789abcdefghijklmnopqrstuvwxyzABC";
const WRONG_OPERATOR_TOKEN = "not-the-operator-token-0123456789";
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Statements sent while `work` ran that carry `value` as a parameter. */
async function statementsCarrying(values: string[], work: () => Promise<void>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const stop = watchStatements((statement) => {
    if (statement.values.some((value) => typeof value === "string" && values.includes(value))) sent.push(statement);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return sent;
}

describe("failed authentications limited per client address", () => {
  let server: TestServer;
  let studio: Studio;
  let postgres = false;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: String(N) } });
    studio = await seedStudio(server.db.database.prisma);
    postgres = onPostgres(server.db);
  });
  afterAll(() => server.close());

  const createGame = (address: string, headers: Record<string, string>, body: unknown = { displayName: "Game" }) =>
    postFrom(server.baseUrl, address, `/v1/accounts/${studio.accountId}/games`, body, headers);

  it("answers wrong API keys over REST 401 N times, then 429 before any query, hashing or body read", async () => {
    const address = "127.0.0.21";
    const failures = await statementsCarrying([hashOf(WRONG_KEY)], async () => {
      for (let n = 0; n < N; n++) {
        const res = await createGame(address, { ...bearer(WRONG_KEY), "x-request-id": `rest-key-${n}` });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe(Code.Unauthenticated);
      }
    });
    if (postgres) expect(failures.length).toBeGreaterThanOrEqual(N);

    const limited = await statementsCarrying([hashOf(WRONG_KEY), "rest-key-limited"], async () => {
      const res = await createGame(address, { ...bearer(WRONG_KEY), "x-request-id": "rest-key-limited" });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ code: Code.ResourceExhausted, message: expect.any(String), details: [] });
    });
    expect(limited).toEqual([]);
    // The body is never read: one over 64 KiB is refused 429, not 400.
    expect((await createGame(address, bearer(WRONG_KEY), { displayName: "x".repeat(70_000) })).status).toBe(429);
    // Every call of the address that needs a credential waits out the window, a valid one too;
    // its public calls are not affected.
    expect((await createGame(address, bearer(studio.tokens.OWNER))).status).toBe(429);
    const funding = await postFrom(server.baseUrl, address, "/v1/public/funding:get", {
      campaignKey: studio.campaignKey,
    });
    expect(funding.status).toBe(200);
    const samples = parsePrometheusText(await server.app.metrics.scrape());
    expect(sample(samples, "encore_rate_limit_refusals_total", { limit: "failed_auth" })).toBeGreaterThanOrEqual(3);
  });

  it("answers wrong sessions over Connect 401 N times, then 429 before any query", async () => {
    const address = "127.0.0.22";
    const listCampaigns = (requestId: string) =>
      postFrom(
        server.baseUrl,
        address,
        "/encore.campaign.v1.CampaignService/ListCampaigns",
        { parent: `accounts/${studio.accountId}` },
        { ...bearer(WRONG_SESSION), "connect-protocol-version": "1", "x-request-id": requestId },
      );
    const failures = await statementsCarrying([hashOf(WRONG_SESSION)], async () => {
      for (let n = 0; n < N; n++) {
        const res = await listCampaigns(`connect-session-${n}`);
        expect([res.status, res.body.code]).toEqual([401, "unauthenticated"]);
      }
    });
    if (postgres) expect(failures.length).toBeGreaterThanOrEqual(N);
    const limited = await statementsCarrying([hashOf(WRONG_SESSION), "connect-session-limited"], async () => {
      const res = await listCampaigns("connect-session-limited");
      expect([res.status, res.body.code]).toEqual([429, "resource_exhausted"]);
    });
    expect(limited).toEqual([]);
  });

  it("never spends an address's budget on a valid key, and leaves other addresses alone", async () => {
    const address = "127.0.0.23";
    for (let n = 0; n < 3 * N; n++) expect((await createGame(address, bearer(studio.tokens.OWNER))).status).toBe(200);
    for (let n = 0; n < N; n++) expect((await createGame(address, bearer(WRONG_KEY))).status).toBe(401);
    expect((await createGame(address, bearer(studio.tokens.OWNER))).status).toBe(429);
    // A fresh address: a valid key works, and a wrong one is judged, not refused.
    expect((await createGame("127.0.0.24", bearer(studio.tokens.OWNER))).status).toBe(200);
    expect((await createGame("127.0.0.24", bearer(WRONG_KEY))).status).toBe(401);
  });
});

describe("failed operator tokens over gRPC", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: String(N) } });
  });
  afterAll(() => server.close());

  it("are UNAUTHENTICATED N times, then RESOURCE_EXHAUSTED, the last neither judged nor recorded", async () => {
    // 127.0.0.1: the test clients' own address.
    const calls = requestIdClients(server, "grpc-operator");
    const operator = calls.client(OperatorService, WRONG_OPERATOR_TOKEN, "grpc");
    const failed: string[] = [];
    for (let n = 0; n < N; n++) {
      expect((await refusal(operator.listAccounts({}))).code).toBe(Code.Unauthenticated);
      failed.push(calls.last());
    }
    let limitedId = "";
    const limited = await statementsCarrying(["grpc-operator-4"], async () => {
      expect((await refusal(operator.listAccounts({}))).code).toBe(Code.ResourceExhausted);
      limitedId = calls.last();
    });
    expect(limitedId).toBe("grpc-operator-4");
    expect(limited).toEqual([]);
    const recorded = await server.db.database.prisma.auditEvent.findMany({ where: { address: "127.0.0.1" } });
    expect(recorded.map((event) => [event.requestId, event.callCount])).toEqual([[failed[0], N]]);
  });
});

describe("the window passing", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: "2", RATE_LIMIT_WINDOW_SECONDS: "1" },
    });
  });
  afterAll(() => server.close());

  it("lets the address try again", async () => {
    const call = () =>
      postFrom(server.baseUrl, "127.0.0.25", "/v1/operator/accounts", {}, bearer(WRONG_OPERATOR_TOKEN)).then(
        (res) => res.status,
      );
    const statuses = [await call(), await call(), await call()];
    expect(statuses).toEqual([401, 401, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await call()).toBe(401);
  });
});

describe("the payment provider's signed webhook", () => {
  const secret = "whsec-test-0123456789abcdefghij";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: String(N), PAYMENT_WEBHOOK_SECRET: secret },
    });
  });
  afterAll(() => server.close());

  const event = { type: "checkout.paid", checkoutSession: "accounts/a/checkoutSessions/b" };
  const signed = (body: unknown) => ({
    [PAYMENT_SIGNATURE_HEADER]: signPaymentPayload({
      secret,
      body: JSON.stringify(body),
      timestampSeconds: Date.now() / 1000,
    }),
  });
  const deliver = (address: string, body: unknown, headers: Record<string, string>) =>
    postFrom(server.baseUrl, address, PAYMENT_WEBHOOK_PATH, body, headers);

  it("counts a bad signature as a failed authentication: 429 before the body is read once spent", async () => {
    const forged = { [PAYMENT_SIGNATURE_HEADER]: `t=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}` };
    for (let n = 0; n < N; n++) expect((await deliver("127.0.0.26", event, forged)).status).toBe(401);
    const limited = await deliver("127.0.0.26", event, forged);
    expect(limited).toEqual({
      status: 429,
      body: { code: Code.ResourceExhausted, message: expect.any(String), details: [] },
    });
    // Even a well-signed event waits out the window there, and an oversized one is not read.
    expect((await deliver("127.0.0.26", event, signed(event))).status).toBe(429);
    expect((await deliver("127.0.0.26", { pad: "x".repeat(70_000) }, forged)).status).toBe(429);
    // The provider's own address is unaffected, and its valid events never spend its budget.
    for (let n = 0; n < 2 * N; n++) {
      expect(await deliver("127.0.0.27", event, signed(event))).toEqual({
        status: 200,
        body: { result: "ignored", reason: "unknown checkout session" },
      });
    }
  });
});
