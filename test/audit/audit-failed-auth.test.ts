import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditEvent_ActorType } from "../../gen/encore/audit/v1/audit_service_pb.js";
import { OperatorAuditService } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { postFrom } from "../support/post-from.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

// docs/audit-log.md "Failed authentications": a stranger's failures cannot grow the log faster
// than the rate limit lets them through. One event per address (IPv6 /64) and window, the first
// failure's, counting every failure of the window; a 429 is not recorded at all.

const N = 3;
const WINDOW_SECONDS = 3600;
// The audit log's clock, on a window's start (windows are aligned on it), moved by the tests.
const WINDOW_START = Date.parse("2026-11-28T10:00:00Z");

describe("failed authentications in the audit log", () => {
  let server: TestServer;
  let clock = WINDOW_START + 5_000;
  beforeAll(async () => {
    server = await startTestServer({
      now: () => new Date(clock),
      env: { RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: String(2 * N), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    });
  });
  afterAll(() => server.close());

  const db = () => server.db.database.prisma;
  const eventsFrom = (address: string) =>
    db().auditEvent.findMany({ where: { address }, orderBy: { createTime: "asc" } });
  // Failed authentications over REST (writes) and Connect (reads): a key, an operator token, a
  // session, and no credential at all.
  const connect = { "connect-protocol-version": "1" };
  const listCampaigns = "/encore.campaign.v1.CampaignService/ListCampaigns";
  const attempts: { path: string; body: unknown; headers: Record<string, string> }[] = [
    { path: "/v1/accounts/a/games", body: { displayName: "G" }, headers: { authorization: "Bearer ek_forged_0000" } },
    { path: "/v1/operator/accounts", body: {}, headers: { authorization: "Bearer not-the-operator-token" } },
    { path: listCampaigns, body: { parent: "accounts/a" }, headers: { authorization: "Bearer es_forged", ...connect } },
    { path: listCampaigns, body: { parent: "accounts/a" }, headers: connect },
  ];
  const fail = (address: string, n: number) => {
    const { path, body, headers } = attempts[n % attempts.length] as (typeof attempts)[number];
    return postFrom(server.baseUrl, address, path, body, { ...headers, "x-request-id": `${address}-${n}` });
  };

  it("leaves one event for 2N failures from one address within a window, with their count; 429s add nothing", async () => {
    const address = "127.0.0.31";
    for (let n = 0; n < 2 * N; n++) {
      clock += 1_000;
      expect((await fail(address, n)).status).toBe(401);
    }
    for (let n = 2 * N; n < 3 * N; n++) expect((await fail(address, n)).status).toBe(429);

    const events = await eventsFrom(address);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      accountId: null,
      actorType: "NONE",
      actor: "",
      method: "encore.hosting.v1.HostingService/CreateGame",
      resource: "accounts/a",
      requestId: `${address}-0`,
      code: Code.Unauthenticated,
      createTime: new Date(WINDOW_START + 6_000),
      callCount: 2 * N,
    });
    // The operator reads the count over the wire.
    const operator = server.client(OperatorAuditService, "grpc", TEST_OPERATOR_TOKEN);
    const listed = await operator.listAllAuditEvents({ filter: 'account = ""' });
    expect(listed.auditEvents.filter((event) => event.address === address)).toMatchObject([
      { actorType: AuditEvent_ActorType.NONE, requestId: `${address}-0`, callCount: 2 * N },
    ]);
    const rest = await server.rest("GET", "/v1/operator/auditEvents", undefined, {
      authorization: `Bearer ${TEST_OPERATOR_TOKEN}`,
    });
    expect(rest.body.auditEvents.find((event: { address: string }) => event.address === address)).toMatchObject({
      callCount: 2 * N,
    });
  });

  it("keeps one event per address, and starts a new one in the next window", async () => {
    expect((await fail("127.0.0.32", 0)).status).toBe(401);
    expect((await fail("127.0.0.33", 1)).status).toBe(401);
    clock = WINDOW_START + WINDOW_SECONDS * 1000 + 1_000;
    expect((await fail("127.0.0.33", 2)).status).toBe(401);
    expect((await eventsFrom("127.0.0.32")).map((event) => event.callCount)).toEqual([1]);
    expect((await eventsFrom("127.0.0.33")).map((event) => [event.requestId, event.callCount])).toEqual([
      ["127.0.0.33-1", 1],
      ["127.0.0.33-2", 1],
    ]);
  });

  it("lets the database raise a failure's count and change nothing else", async () => {
    await server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN).createAccount({ displayName: "Studio" });
    const [counted] = await eventsFrom("127.0.0.32");
    const id = counted?.id ?? "";
    await db().$executeRaw`UPDATE audit_events SET call_count = call_count + 1 WHERE id = ${id}`;
    expect((await db().auditEvent.findUniqueOrThrow({ where: { id } })).callCount).toBe(2);
    for (const change of [
      db().$executeRaw`UPDATE audit_events SET call_count = call_count - 1 WHERE id = ${id}`,
      db().$executeRaw`UPDATE audit_events SET call_count = call_count + 1, request_id = 'other' WHERE id = ${id}`,
      db().$executeRaw`UPDATE audit_events SET call_count = call_count + 1 WHERE address_group IS NULL`,
    ]) {
      await expect(change).rejects.toThrow(/append-only/);
    }
  });
});
