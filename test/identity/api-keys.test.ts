import { createHash } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { refusal } from "../support/refusal.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { createAccount, createKey, type TestAccount } from "./identity-fixture.js";

describe("AccountService: the account and its API keys", () => {
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    server = await startTestServer();
    account = await createAccount(server, "Studio");
    other = await createAccount(server, "Other studio");
  });
  afterAll(() => server.close());

  const as = (token: string) => server.client(AccountService, "connect", token);

  it.each(["connect", "grpc", "grpc-web"] as const)("gets the account over %s", async (protocol) => {
    const got = await server.client(AccountService, protocol, account.ownerKey).getAccount({ name: account.name });
    expect(got).toMatchObject({ name: account.name, displayName: "Studio" });
    expect(got.createTime).toBeDefined();
  });

  it("gets the account over REST", async () => {
    const res = await server.rest("GET", `/v1/${account.name}`, undefined, {
      authorization: `Bearer ${account.ownerKey}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: account.name, displayName: "Studio" });
  });

  it("shows a key's secret once, stores only its hash, and keeps key_prefix", async () => {
    const created = await as(account.ownerKey).createApiKey({
      parent: account.name,
      apiKey: { displayName: "CI", role: Role.ADMIN },
    });
    expect(created.keyString).toMatch(/^ek_[A-Za-z0-9_-]{40,}$/);
    expect(created.name).toMatch(new RegExp(`^${account.name}/apiKeys/[a-z0-9]+$`));
    expect(created).toMatchObject({ displayName: "CI", role: Role.ADMIN, keyPrefix: created.keyString.slice(0, 9) });

    const listed = await as(account.ownerKey).listApiKeys({ parent: account.name });
    const again = listed.apiKeys.find((key) => key.name === created.name);
    expect(again).toMatchObject({ keyString: "", keyPrefix: created.keyPrefix, role: Role.ADMIN });

    const rows = await server.db.database.prisma.apiKey.findMany();
    expect(JSON.stringify(rows)).not.toContain(created.keyString);
    const row = rows.find((key) => created.name.endsWith(`/${key.id}`));
    expect(row?.keyHash).toBe(createHash("sha256").update(created.keyString).digest("hex"));
  });

  it("lets a created key act with its role, and a deleted key stops working", async () => {
    const admin = await as(account.ownerKey).createApiKey({ parent: account.name, apiKey: { role: Role.VIEWER } });
    await expect(as(admin.keyString).getAccount({ name: account.name })).resolves.toMatchObject({ name: account.name });
    await as(account.ownerKey).deleteApiKey({ name: admin.name });
    expect(await refusal(as(admin.keyString).getAccount({ name: account.name }))).toMatchObject({
      code: Code.Unauthenticated,
    });
    expect(await refusal(as(account.ownerKey).deleteApiKey({ name: admin.name }))).toMatchObject({
      code: Code.NotFound,
    });
  });

  it.each([
    ["no credential", undefined],
    ["an unknown API key", "ek_nobodyissuedthisone"],
    ["a token of no known shape", "garbage"],
    ["the operator token", TEST_OPERATOR_TOKEN],
  ])("answers %s UNAUTHENTICATED", async (_, token) => {
    const client = server.client(AccountService, "connect", token);
    expect(await refusal(client.getAccount({ name: account.name }))).toMatchObject({ code: Code.Unauthenticated });
    expect(await refusal(client.listApiKeys({ parent: account.name }))).toMatchObject({ code: Code.Unauthenticated });
  });

  it("answers 401 over REST without a credential", async () => {
    const res = await server.rest("GET", `/v1/${account.name}/apiKeys`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 16 });
  });

  it("answers a caller without the permission NOT_FOUND, worded as for a key that does not exist", async () => {
    const viewer = await createKey(server, account, Role.VIEWER);
    const admin = await createKey(server, account, Role.ADMIN);
    const denied = await refusal(as(viewer).createApiKey({ parent: account.name, apiKey: { role: Role.OWNER } }));
    const missing = await refusal(
      as(account.ownerKey).createApiKey({ parent: "accounts/nosuchaccount", apiKey: { role: Role.OWNER } }),
    );
    expect(denied.code).toBe(Code.NotFound);
    expect(denied.message).toBe(`Account "${account.name}" not found.`);
    expect(missing).toEqual({ code: Code.NotFound, message: 'Account "accounts/nosuchaccount" not found.' });
    expect(await refusal(as(admin).listApiKeys({ parent: account.name }))).toEqual({
      code: Code.NotFound,
      message: `Account "${account.name}" not found.`,
    });
  });

  it("answers another account's names exactly as names that do not exist, including List", async () => {
    const owner = as(account.ownerKey);
    const theirKey = (await as(other.ownerKey).listApiKeys({ parent: other.name })).apiKeys[0]?.name ?? "";
    const theirs = await refusal(owner.deleteApiKey({ name: theirKey }));
    const nobodys = await refusal(owner.deleteApiKey({ name: theirKey.replace(other.accountId, "nosuchaccount") }));
    expect(theirs.code).toBe(Code.NotFound);
    expect(nobodys.code).toBe(Code.NotFound);
    expect(theirs.message.replace(other.accountId, "X")).toBe(nobodys.message.replace("nosuchaccount", "X"));

    for (const call of [
      (parent: string) => owner.listApiKeys({ parent }),
      (parent: string) => owner.listMembers({ parent }),
      (name: string) => owner.getAccount({ name }),
    ]) {
      const a = await refusal(call(other.name));
      const b = await refusal(call("accounts/nosuchaccount"));
      expect(a).toEqual({ code: Code.NotFound, message: `Account "${other.name}" not found.` });
      expect(b).toEqual({ code: Code.NotFound, message: 'Account "accounts/nosuchaccount" not found.' });
    }
    // Their key still works: nothing was touched.
    await expect(as(other.ownerKey).getAccount({ name: other.name })).resolves.toBeDefined();
  });

  it.each([
    ["no apiKey", {}],
    ["ROLE_UNSPECIFIED", { apiKey: { role: Role.UNSPECIFIED } }],
    ["a display name over 200 characters", { apiKey: { role: Role.VIEWER, displayName: "x".repeat(201) } }],
  ])("refuses %s with INVALID_ARGUMENT", async (_, request) => {
    const res = await refusal(as(account.ownerKey).createApiKey({ parent: account.name, ...request }));
    expect(res.code).toBe(Code.InvalidArgument);
  });

  it("refuses a malformed name with INVALID_ARGUMENT", async () => {
    expect(await refusal(as(account.ownerKey).getAccount({ name: "accounts/a/b" }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });
});
