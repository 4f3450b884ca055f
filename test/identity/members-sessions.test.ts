import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { refusal } from "../support/refusal.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { createAccount, createMemberSession, type TestAccount } from "./identity-fixture.js";

const START = new Date("2026-11-22T08:00:00Z");
const HOUR = 3_600_000;

describe("AccountService: members and their sessions", () => {
  let server: TestServer;
  let account: TestAccount;
  let clock = START;
  beforeAll(async () => {
    server = await startTestServer({ now: () => clock });
    account = await createAccount(server);
  });
  afterAll(() => server.close());

  const as = (token: string) => server.client(AccountService, "connect", token);
  const operator = () => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);

  it("adds, lists, re-roles and removes a member", async () => {
    const owner = as(account.ownerKey);
    const member = await owner.createMember({
      parent: account.name,
      member: { email: " Ana@Example.com ", role: Role.VIEWER },
    });
    expect(member).toMatchObject({ email: "ana@example.com", role: Role.VIEWER });
    expect(member.name).toMatch(new RegExp(`^${account.name}/members/[a-z0-9]+$`));

    const listed = await owner.listMembers({ parent: account.name });
    expect(listed.members.map((m) => m.name)).toContain(member.name);

    const updated = await owner.updateMember({
      member: { name: member.name, role: Role.BILLING },
      updateMask: { paths: ["role"] },
    });
    expect(updated).toMatchObject({ name: member.name, email: "ana@example.com", role: Role.BILLING });

    await owner.deleteMember({ name: member.name });
    expect((await owner.listMembers({ parent: account.name })).members.map((m) => m.name)).not.toContain(member.name);
    expect(await refusal(owner.deleteMember({ name: member.name }))).toMatchObject({ code: Code.NotFound });
  });

  it("refuses a second membership for the same email with ALREADY_EXISTS", async () => {
    const owner = as(account.ownerKey);
    await owner.createMember({ parent: account.name, member: { email: "dup@example.com", role: Role.VIEWER } });
    const again = await refusal(
      owner.createMember({ parent: account.name, member: { email: "DUP@example.com", role: Role.ADMIN } }),
    );
    expect(again.code).toBe(Code.AlreadyExists);
  });

  it.each([
    ["an update_mask naming email", { paths: ["email"] }, Role.ADMIN],
    ["ROLE_UNSPECIFIED", { paths: ["role"] }, Role.UNSPECIFIED],
  ])("refuses UpdateMember with %s: INVALID_ARGUMENT", async (_, updateMask, role) => {
    const owner = as(account.ownerKey);
    const member = await owner.createMember({
      parent: account.name,
      member: { email: `u${role}@example.com`, role: Role.VIEWER },
    });
    expect(await refusal(owner.updateMember({ member: { name: member.name, role }, updateMask }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("refuses an invalid email with INVALID_ARGUMENT", async () => {
    const res = await refusal(
      as(account.ownerKey).createMember({ parent: account.name, member: { email: "nope", role: Role.VIEWER } }),
    );
    expect(res.code).toBe(Code.InvalidArgument);
  });

  it("lets a session act with the member's current role", async () => {
    const { member, token } = await createMemberSession(server, account, {
      email: "sam@example.com",
      role: Role.ADMIN,
    });
    await expect(as(token).listMembers({ parent: account.name })).resolves.toBeDefined();
    // account.members.create is the owner's only: NOT_FOUND, as for an account that does not exist.
    expect(
      await refusal(
        as(token).createMember({ parent: account.name, member: { email: "x@example.com", role: Role.OWNER } }),
      ),
    ).toEqual({
      code: Code.NotFound,
      message: `Account "${account.name}" not found.`,
    });
    await as(account.ownerKey).updateMember({ member: { name: member, role: Role.OWNER } });
    await expect(
      as(token).createMember({ parent: account.name, member: { email: "x@example.com", role: Role.VIEWER } }),
    ).resolves.toMatchObject({ email: "x@example.com" });
  });

  it("ends a member's sessions when the member is removed", async () => {
    const { member, token } = await createMemberSession(server, account, {
      email: "leaver@example.com",
      role: Role.VIEWER,
    });
    await expect(as(token).getAccount({ name: account.name })).resolves.toBeDefined();
    await as(account.ownerKey).deleteMember({ name: member });
    expect(await refusal(as(token).getAccount({ name: account.name }))).toMatchObject({ code: Code.Unauthenticated });
    expect(await server.db.database.prisma.session.count({ where: { memberId: member.split("/").pop() } })).toBe(0);
  });

  it("issues 12-hour sessions by default, shorter on request, stores them hashed, and they expire", async () => {
    const owner = as(account.ownerKey);
    const member = await owner.createMember({
      parent: account.name,
      member: { email: "clock@example.com", role: Role.VIEWER },
    });
    const long = await operator().createSession({ member: member.name });
    expect(long.token).toMatch(/^es_/);
    expect(long.member).toBe(member.name);
    expect(long.expireTime?.seconds).toBe(BigInt((START.getTime() + 12 * HOUR) / 1000));
    const short = await operator().createSession({ member: member.name, ttlSeconds: 60n });
    expect(JSON.stringify(await server.db.database.prisma.session.findMany())).not.toContain(short.token);

    await expect(as(short.token).getAccount({ name: account.name })).resolves.toBeDefined();
    clock = new Date(START.getTime() + 60_000);
    expect(await refusal(as(short.token).getAccount({ name: account.name }))).toMatchObject({
      code: Code.Unauthenticated,
    });
    await expect(as(long.token).getAccount({ name: account.name })).resolves.toBeDefined();
    clock = new Date(START.getTime() + 12 * HOUR);
    expect(await refusal(as(long.token).getAccount({ name: account.name }))).toMatchObject({
      code: Code.Unauthenticated,
    });
    clock = START;
  });

  it.each([
    ["over 12 hours", 12n * 3600n + 1n, Code.InvalidArgument],
    ["negative", -1n, Code.InvalidArgument],
  ])("refuses a session lifetime %s", async (_, ttlSeconds, code) => {
    const member = await as(account.ownerKey).createMember({
      parent: account.name,
      member: { email: `ttl${ttlSeconds}@example.com`, role: Role.VIEWER },
    });
    expect(await refusal(operator().createSession({ member: member.name, ttlSeconds }))).toMatchObject({ code });
  });

  it("refuses a session for a member that does not exist with NOT_FOUND", async () => {
    expect(await refusal(operator().createSession({ member: `${account.name}/members/nobody` }))).toMatchObject({
      code: Code.NotFound,
    });
  });
});
