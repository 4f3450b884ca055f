import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { refusal } from "../support/refusal.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { createAccount, createKey, createMemberSession, type TestAccount } from "./identity-fixture.js";

// An account never loses its last owner: the write that would leave it with no owner API key
// and no owner member is refused FAILED_PRECONDITION LAST_OWNER, and nothing changes.

describe("AccountService: the last owner stays", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const as = (token: string) => server.client(AccountService, "connect", token);
  const lastOwner = { code: Code.FailedPrecondition, reason: "LAST_OWNER" };
  const firstKeyName = async (account: TestAccount) =>
    (await as(account.ownerKey).listApiKeys({ parent: account.name })).apiKeys[0]?.name ?? "";

  it("refuses deleting the only owner key, also when non-owner keys and members remain", async () => {
    const account = await createAccount(server);
    const admin = await createKey(server, account, Role.ADMIN);
    await createMemberSession(server, account, { email: "viewer@example.com", role: Role.VIEWER });
    const name = await firstKeyName(account);
    expect(await refusal(as(account.ownerKey).deleteApiKey({ name }))).toMatchObject(lastOwner);
    await expect(as(account.ownerKey).getAccount({ name: account.name })).resolves.toBeDefined();
    await expect(as(admin).getAccount({ name: account.name })).resolves.toBeDefined();
  });

  it.each(["grpc", "grpc-web"] as const)("refuses it LAST_OWNER over %s", async (protocol) => {
    const account = await createAccount(server);
    const client = server.client(AccountService, protocol, account.ownerKey);
    expect(await refusal(client.deleteApiKey({ name: await firstKeyName(account) }))).toMatchObject(lastOwner);
  });

  it("refuses it over REST as 400 with ErrorInfo and PreconditionFailure", async () => {
    const account = await createAccount(server);
    const name = await firstKeyName(account);
    const res = await server.rest("DELETE", `/v1/${name}`, undefined, { authorization: `Bearer ${account.ownerKey}` });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: Code.FailedPrecondition,
      message: expect.any(String),
      details: expect.arrayContaining([
        expect.objectContaining({
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "LAST_OWNER",
          domain: "campaign.encore.v1",
        }),
        expect.objectContaining({
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: [{ type: "LAST_OWNER", subject: name, description: expect.any(String) }],
        }),
      ]),
    });
    expect(await server.db.database.prisma.apiKey.count({ where: { accountId: account.accountId } })).toBe(1);
  });

  it("lets the owner key go while an owner member remains, then keeps that member", async () => {
    const account = await createAccount(server);
    const { member, token } = await createMemberSession(server, account, {
      email: "boss@example.com",
      role: Role.OWNER,
    });
    await as(account.ownerKey).deleteApiKey({ name: await firstKeyName(account) });
    expect(await refusal(as(token).updateMember({ member: { name: member, role: Role.ADMIN } }))).toMatchObject(
      lastOwner,
    );
    expect(await refusal(as(token).deleteMember({ name: member }))).toMatchObject(lastOwner);
    await expect(as(token).listMembers({ parent: account.name })).resolves.toMatchObject({
      members: [expect.objectContaining({ name: member, role: Role.OWNER })],
    });
    // Re-roling an owner as owner takes nothing away.
    await expect(as(token).updateMember({ member: { name: member, role: Role.OWNER } })).resolves.toMatchObject({
      role: Role.OWNER,
    });
  });

  it("lets an owner member be demoted or removed while an owner key remains", async () => {
    const account = await createAccount(server);
    const owner = as(account.ownerKey);
    const a = await createMemberSession(server, account, { email: "a@example.com", role: Role.OWNER });
    const b = await createMemberSession(server, account, { email: "b@example.com", role: Role.OWNER });
    await expect(owner.updateMember({ member: { name: a.member, role: Role.VIEWER } })).resolves.toMatchObject({
      role: Role.VIEWER,
    });
    await expect(owner.deleteMember({ name: b.member })).resolves.toBeDefined();
  });

  it("answers another account's last owner key NOT_FOUND, not LAST_OWNER", async () => {
    const mine = await createAccount(server);
    const theirs = await createAccount(server);
    const res = await refusal(as(mine.ownerKey).deleteApiKey({ name: await firstKeyName(theirs) }));
    expect(res.code).toBe(Code.NotFound);
  });

  it("lets exactly one of two owners deleting each other's key at once succeed (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    // Several accounts at once, so the two deletes of each overlap in the database.
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const account = await createAccount(server);
        const first = await firstKeyName(account);
        const second = await as(account.ownerKey).createApiKey({ parent: account.name, apiKey: { role: Role.OWNER } });
        const results = await Promise.allSettled([
          as(account.ownerKey).deleteApiKey({ name: second.name }),
          as(second.keyString).deleteApiKey({ name: first }),
        ]);
        const remaining = await server.db.database.prisma.apiKey.count({ where: { accountId: account.accountId } });
        return { results, remaining };
      }),
    );
    for (const { results, remaining } of outcomes) {
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((result) => result.status === "rejected");
      // The loser either reached the guard (LAST_OWNER) or arrived after its own key was
      // already deleted (UNAUTHENTICATED); never may both deletes succeed.
      const error = await refusal(Promise.reject(refused?.reason));
      expect([Code.Unauthenticated, Code.FailedPrecondition]).toContain(error.code);
      if (error.code === Code.FailedPrecondition) expect(error).toMatchObject(lastOwner);
      expect(remaining).toBe(1);
    }
  });

  it("keeps one owner when an owner key and an owner member remove each other at once (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const account = await createAccount(server);
        const session = await createMemberSession(server, account, { email: `m${i}@example.com`, role: Role.OWNER });
        const keyName = await firstKeyName(account);
        const results = await Promise.allSettled([
          as(account.ownerKey).updateMember({ member: { name: session.member, role: Role.VIEWER } }),
          as(session.token).deleteApiKey({ name: keyName }),
        ]);
        const db = server.db.database.prisma;
        const owners =
          (await db.apiKey.count({ where: { accountId: account.accountId, role: "OWNER" } })) +
          (await db.member.count({ where: { accountId: account.accountId, role: "OWNER" } }));
        return { results, owners };
      }),
    );
    for (const { results, owners } of outcomes) {
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect(owners).toBe(1);
    }
  });
});
