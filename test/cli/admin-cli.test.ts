import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../gen/encore/account/v1/account_service_pb.js";
import { ADMIN_CLI_ENTRY, ROOT } from "../support/built-entries.js";
import { DOLLAR, seedCampaign } from "../support/seed.js";
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

const run = promisify(execFile);

describe("npm run admin", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Runs the CLI the way `npm run admin --` does, with the server's URL and token in the environment. */
  const admin = (...args: string[]) =>
    run(process.execPath, [ADMIN_CLI_ENTRY, ...args], {
      cwd: ROOT,
      env: { ...process.env, ENCORE_URL: server.baseUrl, OPERATOR_TOKEN: TEST_OPERATOR_TOKEN },
    });

  it("creates an account and prints its name and working key as JSON", async () => {
    const { stdout } = await admin("create-account", "--display-name", "Studio", "--json");
    const printed = JSON.parse(stdout);
    expect(Object.keys(printed)).toEqual(["account", "apiKey"]);
    expect(printed.account).toMatch(/^accounts\/[a-z0-9]+$/);
    expect(printed.apiKey).toMatch(/^ek_/);
    const owner = server.client(AccountService, "connect", printed.apiKey);
    await expect(owner.getAccount({ name: printed.account })).resolves.toMatchObject({ displayName: "Studio" });
  });

  it("records a settlement given in dollars and prints the settlement", async () => {
    const { accountId, linkId } = await seedCampaign(server.db.database.prisma, { outstandingNanos: 20n * DOLLAR });
    const link = `accounts/${accountId}/distributorLinks/${linkId}`;
    const { stdout } = await admin(
      "--json",
      "record-settlement",
      "--link",
      link,
      "--amount",
      "12.50",
      "--reference",
      "INV-7",
    );
    expect(JSON.parse(stdout)).toMatchObject({
      amount: { currencyCode: "USD", units: "12", nanos: 500000000 },
      reference: "INV-7",
    });
    const row = await server.db.database.prisma.distributorLink.findUniqueOrThrow({ where: { id: linkId } });
    expect(row.outstandingNanos).toBe(7n * DOLLAR + 500_000_000n);
  });

  it("prints a refusal's message and exits 1", async () => {
    const failed = await admin("set-allowed-origins", "https://game.example/path").catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error: InvalidArgument: .*scheme:\/\/host/m);
  });

  it("refuses an amount with more than two decimals before calling anything", async () => {
    const failed = await admin("set-default-outstanding-limit", "--amount", "1.005").catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/at most two decimals/);
  });

  it("reads the operator token from DATA_DIR/secrets.json when OPERATOR_TOKEN is unset", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "encore-cli-"));
    writeFileSync(join(dataDir, "secrets.json"), JSON.stringify({ masterKey: "", operatorToken: TEST_OPERATOR_TOKEN }));
    const { OPERATOR_TOKEN: _, ...env } = process.env;
    const { stdout } = await run(process.execPath, [ADMIN_CLI_ENTRY, "get-settings", "--json"], {
      cwd: ROOT,
      env: { ...env, ENCORE_URL: server.baseUrl, DATA_DIR: dataDir },
    });
    expect(JSON.parse(stdout)).toMatchObject({ name: "settings" });
  });

  it("answers a wrong token with UNAUTHENTICATED", async () => {
    const failed = await admin("--token", "not-the-operator-token-000000", "get-settings").catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/Unauthenticated/);
  });
});
