import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { AuditService } from "../../gen/encore/audit/v1/audit_service_pb.js";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorAuditService } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { createAccount, createKey, createMemberSession, type TestAccount } from "../identity/identity-fixture.js";
import { refusal } from "../support/refusal.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

// The audit log is read by the account's owner and admin (filters, paging), not by
// billing or viewer; the operator reads every account's; nobody changes it.

describe("reading the audit log", () => {
  let server: TestServer;
  let studio: TestAccount;
  let other: TestAccount;
  const games: string[] = [];
  let ownerKeyName = "";
  let clock = new Date("2026-11-25T10:00:00Z");

  beforeAll(async () => {
    server = await startTestServer({ now: () => clock });
    studio = await createAccount(server, "Studio");
    other = await createAccount(server, "Other");
    ownerKeyName = (await server.client(AccountService, "connect", studio.ownerKey).getCaller({})).apiKey;
    const hosting = server.client(HostingService, "connect", studio.ownerKey);
    // Five games, a minute apart, and one in the other account.
    for (let i = 0; i < 5; i++) {
      clock = new Date(Date.UTC(2026, 10, 25, 11, i));
      games.push((await hosting.createGame({ parent: studio.name, game: { displayName: `Game ${i}` } })).name);
    }
    await server
      .client(HostingService, "connect", other.ownerKey)
      .createGame({ parent: other.name, game: { displayName: "Theirs" } });
    // A failed authentication: no account's.
    await refusal(
      server.client(HostingService, "connect", "ek_nobody_issued_this_key_000000").listGames({ parent: studio.name }),
    );
  });
  afterAll(() => server.close());

  const audit = (token: string) => server.client(AuditService, "connect", token);
  const createGame = "encore.hosting.v1.HostingService/CreateGame";

  it("lists the account's events newest first, by resource, actor, method and time, in pages", async () => {
    const owner = audit(studio.ownerKey);
    const all = await owner.listAuditEvents({ parent: studio.name, filter: `method = "${createGame}"` });
    expect(all.auditEvents.map((event) => event.resource)).toEqual([...games].reverse());
    expect(all.auditEvents.every((event) => event.name.startsWith(`${studio.name}/auditEvents/`))).toBe(true);

    const one = await owner.listAuditEvents({ parent: studio.name, filter: `resource = "${games[2]}"` });
    expect(one.auditEvents.map((event) => event.resource)).toEqual([games[2]]);
    const byActor = await owner.listAuditEvents({ parent: studio.name, filter: `actor = "${ownerKeyName}"` });
    expect(byActor.auditEvents).toHaveLength(5);
    const window = await owner.listAuditEvents({
      parent: studio.name,
      filter: `create_time >= "2026-11-25T11:01:00Z" AND create_time < "2026-11-25T11:03:00Z" AND method = "${createGame}"`,
    });
    expect(window.auditEvents.map((event) => event.resource)).toEqual([games[2], games[1]]);

    const paged: string[] = [];
    let pageToken = "";
    do {
      const page = await owner.listAuditEvents({
        parent: studio.name,
        filter: `method = "${createGame}"`,
        pageSize: 2,
        pageToken,
      });
      expect(page.auditEvents.length).toBeLessThanOrEqual(2);
      paged.push(...page.auditEvents.map((event) => event.resource));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(paged).toEqual([...games].reverse());
  });

  it("refuses a filter it does not know and a page token of another list", async () => {
    const owner = audit(studio.ownerKey);
    for (const filter of [
      'resource : "x"',
      'code = "0"',
      'create_time >= "yesterday"',
      'account = "accounts/x"',
      'actor = "a" AND actor = "b"',
    ]) {
      expect(await refusal(owner.listAuditEvents({ parent: studio.name, filter })), filter).toMatchObject({
        code: Code.InvalidArgument,
      });
    }
    const first = await owner.listAuditEvents({ parent: studio.name, pageSize: 1 });
    expect(first.nextPageToken).not.toBe("");
    expect(
      await refusal(
        owner.listAuditEvents({
          parent: studio.name,
          filter: `method = "${createGame}"`,
          pageToken: first.nextPageToken,
        }),
      ),
    ).toMatchObject({ code: Code.InvalidArgument });
  });

  it("is read by owner and admin (keys and sessions), not by billing, viewer or another account", async () => {
    const readers = [studio.ownerKey, await createKey(server, studio, Role.ADMIN)];
    readers.push((await createMemberSession(server, studio, { email: "admin@example.com", role: Role.ADMIN })).token);
    for (const token of readers) {
      const page = await audit(token).listAuditEvents({ parent: studio.name, filter: `method = "${createGame}"` });
      expect(page.auditEvents).toHaveLength(5);
    }
    const refused = [
      await createKey(server, studio, Role.BILLING),
      await createKey(server, studio, Role.VIEWER),
      other.ownerKey,
    ];
    refused.push((await createMemberSession(server, studio, { email: "viewer@example.com", role: Role.VIEWER })).token);
    for (const token of refused) {
      expect(await refusal(audit(token).listAuditEvents({ parent: studio.name }))).toMatchObject({
        code: Code.NotFound,
      });
    }
    // The operator token is not a studio's credential, nor a studio's key the operator's.
    expect(await refusal(audit(TEST_OPERATOR_TOKEN).listAuditEvents({ parent: studio.name }))).toMatchObject({
      code: Code.Unauthenticated,
    });
    const asStudio = server.client(OperatorAuditService, "connect", studio.ownerKey);
    expect(await refusal(asStudio.listAllAuditEvents({}))).toMatchObject({ code: Code.Unauthenticated });
  });

  it("is read by the operator across accounts, by account, and for events of no account", async () => {
    const operator = server.client(OperatorAuditService, "grpc", TEST_OPERATOR_TOKEN);
    const games = await operator.listAllAuditEvents({ filter: `method = "${createGame}"` });
    const accounts = new Set(games.auditEvents.map((event) => event.name.split("/auditEvents/")[0]));
    expect(accounts).toEqual(new Set([studio.name, other.name]));
    const theirs = await operator.listAllAuditEvents({
      filter: `account = "${other.name}" AND method = "${createGame}"`,
    });
    expect(theirs.auditEvents.map((event) => event.name.split("/auditEvents/")[0])).toEqual([other.name]);
    const none = await operator.listAllAuditEvents({ filter: 'account = ""' });
    expect(none.auditEvents.length).toBeGreaterThan(0);
    expect(none.auditEvents.every((event) => event.name.startsWith("auditEvents/") && event.actor === "")).toBe(true);
    expect(none.auditEvents.map((event) => event.code)).toContain(Code.Unauthenticated);
  });

  it("answers over REST, for the studio and for the operator", async () => {
    const filter = encodeURIComponent(`resource = "${games[0]}"`);
    const studioView = await server.rest("GET", `/v1/${studio.name}/auditEvents?filter=${filter}`, undefined, {
      authorization: `Bearer ${studio.ownerKey}`,
    });
    expect(studioView.status).toBe(200);
    expect(studioView.body.auditEvents).toHaveLength(1);
    expect(studioView.body.auditEvents[0]).toMatchObject({
      resource: games[0],
      method: createGame,
      actorType: "ACTOR_TYPE_API_KEY",
      changedFields: ["display_name"],
      request: { parent: studio.name, game: { displayName: "Game 0" } },
      address: "127.0.0.1",
      code: 0,
    });
    const operatorView = await server.rest("GET", `/v1/operator/auditEvents?filter=${filter}&pageSize=1`, undefined, {
      authorization: `Bearer ${TEST_OPERATOR_TOKEN}`,
    });
    expect(operatorView.status).toBe(200);
    expect(operatorView.body.auditEvents[0].name).toBe(studioView.body.auditEvents[0].name);
  });

  it("refuses to change a recorded event: UPDATE and DELETE are refused by the database", async () => {
    const db = server.db.database.prisma;
    const before = await db.$queryRaw<
      { row: string }[]
    >`SELECT row_to_json(a)::text AS row FROM audit_events a ORDER BY id`;
    await expect(db.$executeRaw`UPDATE audit_events SET code = 0`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`DELETE FROM audit_events`).rejects.toThrow(/append-only/);
    await expect(db.auditEvent.updateMany({ data: { actor: "someone else" } })).rejects.toThrow();
    const after = await db.$queryRaw<
      { row: string }[]
    >`SELECT row_to_json(a)::text AS row FROM audit_events a ORDER BY id`;
    expect(after).toEqual(before);
  });
});
