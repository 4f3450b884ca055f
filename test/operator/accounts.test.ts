import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { createAccount, createMemberSession } from "../identity/identity-fixture.js";
import { refusal } from "../support/refusal.js";
import { onPostgres } from "../support/test-database.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

describe("OperatorService: authentication, accounts", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const operator = (protocol: "connect" | "grpc" | "grpc-web" = "connect") =>
    server.client(OperatorService, protocol, TEST_OPERATOR_TOKEN);

  it("answers every credential but the operator token UNAUTHENTICATED, even an owner's key and session", async () => {
    const account = await createAccount(server);
    const { token: session } = await createMemberSession(server, account, { email: "o@example.com", role: Role.OWNER });
    for (const token of [undefined, "wrong-operator-token-0123456789", account.ownerKey, session]) {
      const client = server.client(OperatorService, "connect", token);
      expect(await refusal(client.listAccounts({}))).toMatchObject({ code: Code.Unauthenticated });
      expect(await refusal(client.createAccount({ displayName: "Sneaky" }))).toMatchObject({
        code: Code.Unauthenticated,
      });
      expect(await refusal(client.getSettings({}))).toMatchObject({ code: Code.Unauthenticated });
    }
    const rest = await server.rest("GET", "/v1/operator/accounts", undefined, {
      authorization: `Bearer ${account.ownerKey}`,
    });
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ code: 16 });
  });

  it.each(["connect", "grpc", "grpc-web"] as const)(
    "creates an account with a working owner key over %s",
    async (protocol) => {
      const created = await operator(protocol).createAccount({ displayName: "Studio" });
      expect(created.account).toMatchObject({ displayName: "Studio" });
      expect(created.account?.name).toMatch(/^accounts\/[a-z0-9]+$/);
      expect(created.apiKey).toMatchObject({ role: Role.OWNER });
      expect(created.apiKey?.name.startsWith(`${created.account?.name}/apiKeys/`)).toBe(true);
      const owner = server.client(AccountService, "connect", created.apiKey?.keyString);
      await expect(owner.getAccount({ name: created.account?.name ?? "" })).resolves.toMatchObject({
        displayName: "Studio",
      });
      expect(JSON.stringify(await server.db.database.prisma.apiKey.findMany())).not.toContain(
        created.apiKey?.keyString,
      );
    },
  );

  it("creates an account over REST", async () => {
    const res = await server.rest(
      "POST",
      "/v1/operator/accounts",
      { displayName: "Rest studio" },
      { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.account.displayName).toBe("Rest studio");
    expect(res.body.apiKey.keyString).toMatch(/^ek_/);
  });

  it("is idempotent on request_id: the same account and the same working key, created once", async () => {
    const first = await operator().createAccount({ displayName: "Once", requestId: "create-once-1" });
    const again = await operator().createAccount({ displayName: "Once", requestId: "create-once-1" });
    expect(again.account?.name).toBe(first.account?.name);
    expect(again.apiKey?.name).toBe(first.apiKey?.name);
    expect(again.apiKey?.keyString).toBe(first.apiKey?.keyString);
    expect(await server.db.database.prisma.account.count({ where: { requestId: "create-once-1" } })).toBe(1);
    const owner = server.client(AccountService, "connect", again.apiKey?.keyString);
    await expect(owner.getAccount({ name: first.account?.name ?? "" })).resolves.toBeDefined();
    expect(await refusal(operator().createAccount({ displayName: "Other", requestId: "create-once-1" }))).toMatchObject(
      {
        code: Code.AlreadyExists,
      },
    );
  });

  it("creates one account for concurrent calls with one request_id (PostgreSQL)", async (context) => {
    if (!onPostgres(server.db)) context.skip();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => operator().createAccount({ displayName: "Racing", requestId: "create-race" })),
    );
    expect(new Set(results.map((result) => result.account?.name)).size).toBe(1);
    expect(new Set(results.map((result) => result.apiKey?.keyString)).size).toBe(1);
    expect(await server.db.database.prisma.account.count({ where: { requestId: "create-race" } })).toBe(1);
  });

  it("answers a retry after the first key was deleted with the account and no key", async () => {
    const first = await operator().createAccount({ displayName: "Deleted key", requestId: "create-once-2" });
    const owner = server.client(AccountService, "connect", first.apiKey?.keyString);
    const spare = await owner.createApiKey({ parent: first.account?.name ?? "", apiKey: { role: Role.OWNER } });
    await server.client(AccountService, "connect", spare.keyString).deleteApiKey({ name: first.apiKey?.name ?? "" });
    const again = await operator().createAccount({ displayName: "Deleted key", requestId: "create-once-2" });
    expect(again.account?.name).toBe(first.account?.name);
    expect(again.apiKey).toBeUndefined();
  });

  it.each([
    ["a blank display name", { displayName: "   " }],
    ["a request id over 128 characters", { displayName: "x", requestId: "r".repeat(129) }],
  ])("refuses %s with INVALID_ARGUMENT", async (_, request) => {
    expect(await refusal(operator().createAccount(request))).toMatchObject({ code: Code.InvalidArgument });
  });

  it("lists every account over pages", async () => {
    for (let i = 0; i < 4; i++) await operator().createAccount({ displayName: `Listed ${i}` });
    const total = await server.db.database.prisma.account.count();
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await operator().listAccounts({ pageSize: 3, pageToken });
      seen.push(...page.accounts.map((account) => account.name));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
    expect(await refusal(operator().listAccounts({ pageToken: "nope" }))).toMatchObject({ code: Code.InvalidArgument });
  });
});
