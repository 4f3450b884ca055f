import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { type Role as DomainRole, permissionTable, roleHolds } from "../../src/domain/permissions.js";
import { refusal } from "../support/refusal.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";
import { createAccount, createKey, createMemberSession, type TestAccount } from "./identity-fixture.js";

// GetCaller: who a token is, so the console can name its account and leave out what
// its role may not do.
const held = (role: DomainRole) =>
  Object.keys(permissionTable)
    .filter((permission) => roleHolds(role, permission as keyof typeof permissionTable))
    .sort();

describe("AccountService.GetCaller", () => {
  let server: TestServer;
  let account: TestAccount;
  beforeAll(async () => {
    server = await startTestServer();
    account = await createAccount(server, "Studio");
  });
  afterAll(() => server.close());

  it.each([
    [Role.OWNER, "OWNER"],
    [Role.ADMIN, "ADMIN"],
    [Role.BILLING, "BILLING"],
    [Role.VIEWER, "VIEWER"],
  ] as const)("answers an API key of role %s with its account, role and permissions", async (role, domainRole) => {
    const key = await createKey(server, account, role);
    const caller = await server.client(AccountService, "connect", key).getCaller({});
    expect(caller.account).toBe(account.name);
    expect(caller.role).toBe(role);
    expect(caller.permissions).toEqual(held(domainRole));
    expect(caller.apiKey).toMatch(new RegExp(`^${account.name}/apiKeys/[a-z0-9]+$`));
    expect(caller.member).toBe("");
  });

  it("answers a member's session with the member", async () => {
    const session = await createMemberSession(server, account, { email: "viewer@studio.example", role: Role.VIEWER });
    const caller = await server.client(AccountService, "grpc-web", session.token).getCaller({});
    expect(caller).toMatchObject({ account: account.name, role: Role.VIEWER, member: session.member, apiKey: "" });
    expect(caller.permissions).not.toContain("encore.offers.update");
  });

  it("answers over REST at GET /v1/caller", async () => {
    const res = await server.rest("GET", "/v1/caller", undefined, { authorization: `Bearer ${account.ownerKey}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ account: account.name, role: "ROLE_OWNER" });
    expect(res.body.permissions).toContain("encore.offers.update");
  });

  it("refuses a call without a credential, with an unknown one, and the operator token", async () => {
    const accounts = (token?: string) => server.client(AccountService, "connect", token);
    expect(await refusal(accounts().getCaller({}))).toMatchObject({ code: Code.Unauthenticated });
    expect(await refusal(accounts("ek_nobody").getCaller({}))).toMatchObject({ code: Code.Unauthenticated });
    expect(await refusal(accounts(TEST_OPERATOR_TOKEN).getCaller({}))).toMatchObject({ code: Code.Unauthenticated });
  });
});
