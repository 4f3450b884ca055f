import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_CLI_ENTRY, ROOT } from "../support/built-entries.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

const run = promisify(execFile);

// The operator's command line is recorded like any operator call, and reads the audit
// log of every account (list-audit-events).
describe("npm run admin -- list-audit-events", { timeout: 60_000 }, () => {
  let server: TestServer;
  let account = "";
  beforeAll(async () => {
    // A day's window: the failed authentications below cannot straddle two of them.
    server = await startTestServer({ env: { RATE_LIMIT_WINDOW_SECONDS: "86400" } });
  });
  afterAll(() => server.close());

  const admin = (args: string[], token = TEST_OPERATOR_TOKEN) =>
    run(process.execPath, [ADMIN_CLI_ENTRY, ...args], {
      cwd: ROOT,
      env: { ...process.env, ENCORE_URL: server.baseUrl, OPERATOR_TOKEN: token },
    });

  it("shows the CLI's own operator calls, filtered by account and method, as JSON", async () => {
    account = JSON.parse((await admin(["create-account", "--display-name", "Studio", "--json"])).stdout).account;
    const { stdout } = await admin(["list-audit-events", "--json", "--account", account]);
    const listed = JSON.parse(stdout);
    expect(listed.auditEvents).toHaveLength(1);
    expect(listed.auditEvents[0]).toMatchObject({
      method: "encore.operator.v1.OperatorService/CreateAccount",
      resource: account,
      actorType: "ACTOR_TYPE_OPERATOR",
      actor: "operator",
      address: "127.0.0.1",
      code: 0,
      changedFields: ["display_name"],
    });
    expect(stdout).not.toContain("ek_");
  });

  it("prints one line per event for people, and failed authentications as nobody's, with their count", async () => {
    for (let n = 0; n < 2; n++) {
      await admin(["list-accounts"], "not-the-operator-token-000000000000").catch(() => undefined);
    }
    const { stdout } = await admin(["list-audit-events", "--no-account"]);
    expect(stdout).toMatch(
      /^\S+Z Unauthenticated encore\.operator\.v1\.OperatorService\/ListAccounts - by nobody authenticated from 127\.0\.0\.1 \(request \S+, 2 calls\)\n/,
    );
    expect(stdout).not.toContain("not-the-operator-token");
    const created = await admin(["list-audit-events", "--method", "encore.operator.v1.OperatorService/CreateAccount"]);
    expect(created.stdout).toMatch(
      new RegExp(
        `^\\S+Z OK encore\\.operator\\.v1\\.OperatorService/CreateAccount ${account} \\[display_name\\] by operator from 127\\.0\\.0\\.1`,
      ),
    );
    const none = await admin(["list-audit-events", "--since", "2999-01-01T00:00:00Z"]);
    expect(none.stdout).toBe("no audit events\n");
  });
});
