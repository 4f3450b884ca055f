import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { refusal } from "../support/refusal.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { createAccount, type TestAccount } from "./identity-fixture.js";

describe("AccountService list pagination", () => {
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    server = await startTestServer();
    account = await createAccount(server);
    other = await createAccount(server);
    const owner = server.client(AccountService, "connect", account.ownerKey);
    // Five more keys: six in all with the first owner key.
    for (let i = 0; i < 5; i++)
      await owner.createApiKey({ parent: account.name, apiKey: { role: Role.VIEWER, displayName: `k${i}` } });
  });
  afterAll(() => server.close());

  const owner = () => server.client(AccountService, "connect", account.ownerKey);

  it("pages through three pages of two, each key once, in creation order", async () => {
    const names: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const page = await owner().listApiKeys({ parent: account.name, pageSize: 2, pageToken });
      expect(page.apiKeys.length).toBe(2);
      names.push(...page.apiKeys.map((key) => key.name));
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken !== "");
    expect(pages).toBe(3);
    expect(new Set(names).size).toBe(6);
    const all = await owner().listApiKeys({ parent: account.name });
    expect(all.apiKeys.map((key) => key.name)).toEqual(names);
    expect(all.nextPageToken).toBe("");
  });

  it("pages over REST with pageSize and pageToken in the query", async () => {
    const headers = { authorization: `Bearer ${account.ownerKey}` };
    const first = await server.rest("GET", `/v1/${account.name}/apiKeys?pageSize=4`, undefined, headers);
    expect(first.status).toBe(200);
    expect(first.body.apiKeys).toHaveLength(4);
    const second = await server.rest(
      "GET",
      `/v1/${account.name}/apiKeys?pageSize=4&pageToken=${encodeURIComponent(first.body.nextPageToken)}`,
      undefined,
      headers,
    );
    expect(second.body.apiKeys).toHaveLength(2);
    expect(second.body.nextPageToken).toBe("");
  });

  it("refuses an altered token, garbage, and another list's token with 400", async () => {
    const headers = { authorization: `Bearer ${account.ownerKey}` };
    const { nextPageToken } = await owner().listApiKeys({ parent: account.name, pageSize: 1 });
    const [payload, mac] = nextPageToken.split(".");
    const forged = `${Buffer.from(JSON.stringify(["0"])).toString("base64url")}.${mac}`;
    const membersToken = nextPageToken; // issued for apiKeys, not members
    for (const token of [forged, "garbage", `${payload}.`, `${payload}.${mac}.x`]) {
      const res = await server.rest(
        "GET",
        `/v1/${account.name}/apiKeys?pageToken=${encodeURIComponent(token)}`,
        undefined,
        headers,
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 3 });
    }
    expect(await refusal(owner().listMembers({ parent: account.name, pageToken: membersToken }))).toMatchObject({
      code: Code.InvalidArgument,
    });
    const theirs = server.client(AccountService, "connect", other.ownerKey);
    expect(await refusal(theirs.listApiKeys({ parent: other.name, pageToken: nextPageToken }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("defaults to 50, caps at 1000 and refuses a negative page size", async () => {
    expect((await owner().listApiKeys({ parent: account.name, pageSize: 5000 })).apiKeys).toHaveLength(6);
    expect(await refusal(owner().listApiKeys({ parent: account.name, pageSize: -1 }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });
});
