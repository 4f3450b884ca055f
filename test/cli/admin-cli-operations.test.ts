import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { masterKeyId } from "../../src/core/secret-box.js";
import { createLogger } from "../../src/logger.js";
import { createListener, type Listener } from "../../src/server/listener.js";
import { ADMIN_CLI_ENTRY, ROOT } from "../support/built-entries.js";
import { selfSignedCertificate } from "../support/certificate.js";
import { seedCampaign } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { TEST_MASTER_KEY, TEST_OPERATOR_TOKEN } from "../support/test-server.js";

// What an operator meets at the console: flags named, TLS options, which token was refused,
// empty lists said, zero amounts kept, an event that credited nothing a failure.

const run = promisify(execFile);
const { OPERATOR_TOKEN: _, ENCORE_URL: __, DATA_DIR: ___, ...baseEnv } = process.env;

type Failure = { code: number; stdout: string; stderr: string };

describe("npm run admin at the console", { timeout: 60_000 }, () => {
  const tls = selfSignedCertificate();
  let db: TestDatabase;
  let listener: Listener;
  let stopApp: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: "silent" });
    const app = createApp({
      config,
      database: db.database,
      logger: createLogger("silent"),
      secrets: { masterKey: TEST_MASTER_KEY, operatorToken: TEST_OPERATOR_TOKEN },
    });
    stopApp = app.stop;
    listener = createListener({ handler: app.handler, tls, connections: config.connections });
    const address = await listener.listen(0, "127.0.0.1");
    url = `https://localhost:${address.port}`;
  });
  afterAll(async () => {
    await listener.close();
    await stopApp();
    await db.drop();
  });

  const admin = (args: string[], env: Record<string, string> = { OPERATOR_TOKEN: TEST_OPERATOR_TOKEN }) =>
    run(process.execPath, [ADMIN_CLI_ENTRY, "--url", url, "--ca", tls.certFile, ...args], {
      cwd: ROOT,
      env: { ...baseEnv, ...env },
    });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ code: 0 }) as Failure,
      (e: Failure) => e,
    );

  it("says so when there are no accounts and no campaigns to review (trusting the service's CA with --ca)", async () => {
    expect((await admin(["list-accounts"])).stdout).toBe("no accounts\n");
    expect((await admin(["list-reviews"])).stdout).toBe("no campaigns in NEEDS_REVIEW\n");
  });

  it("says so when reconciliation has found nothing and no link has reversals", async () => {
    expect((await admin(["list-reconciliation-findings"])).stdout).toBe("no reconciliation findings\n");
    expect((await admin(["list-link-reversals"])).stdout).toMatch(
      /^over \d+ days, flagged at \d+%:\nno distributor links\n$/,
    );
    expect((await admin(["list-link-reversals", "--flagged"])).stdout).toMatch(/:\nno flagged distributor links\n$/);
  });

  it("refuses an https service whose certificate it cannot verify, and --insecure skips the check", async () => {
    const env = { ...baseEnv, OPERATOR_TOKEN: TEST_OPERATOR_TOKEN };
    const untrusted = await failure(
      run(process.execPath, [ADMIN_CLI_ENTRY, "--url", url, "list-accounts"], { cwd: ROOT, env }),
    );
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/certificate/);
    const insecure = await run(process.execPath, [ADMIN_CLI_ENTRY, "--url", url, "--insecure", "list-accounts"], {
      cwd: ROOT,
      env,
    });
    expect(insecure.stdout).toBe("no accounts\n");
  });

  it("names an unknown flag", async () => {
    const failed = await failure(admin(["list-accounts", "--page-sise", "2"]));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error: unknown option '--page-sise'/m);
  });

  it("keeps a zero units field in JSON and prints cents for people", async () => {
    const { stdout } = await admin(["--json", "set-default-outstanding-limit", "--amount", "0.50"]);
    expect(JSON.parse(stdout).defaultOutstandingLimit).toEqual({ currencyCode: "USD", units: "0", nanos: 500000000 });
    expect((await admin(["set-default-outstanding-limit", "--amount", "5"])).stdout).toMatch(
      /^default outstanding limit: 5\.00 USD$/m,
    );
  });

  it.each([
    ["the --token flag", ["--token", "wrong-operator-token-0000000000"], {}],
    ["OPERATOR_TOKEN", [], { OPERATOR_TOKEN: "wrong-operator-token-0000000000" }],
  ])("says the refused token came from %s, never printing it", async (source, flags, env) => {
    const failed = await failure(admin([...flags, "get-settings"], env));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`Unauthenticated`);
    expect(failed.stderr).toContain(`(the operator token came from ${source})`);
    expect(failed.stderr).not.toContain("wrong-operator-token");
  });

  it("says the refused token came from the DATA_DIR secrets file", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "encore-cli-"));
    writeFileSync(
      join(dataDir, "secrets.json"),
      JSON.stringify({ masterKey: "", operatorToken: "stale-token-00000000000000" }),
    );
    const failed = await failure(admin(["get-settings"], { DATA_DIR: dataDir }));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`(the operator token came from ${join(dataDir, "secrets.json")})`);
    expect(failed.stderr).not.toContain("stale-token");
  });

  it("exits 1 when the provider's event credits nothing (an unknown checkout session)", async () => {
    const failed = await failure(
      admin(["simulate-payment", "--session", "accounts/a1/checkoutSessions/nope"], {
        ENCORE_MASTER_KEY: TEST_MASTER_KEY.toString("base64"),
      }),
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/not credited: ignored \(unknown checkout session\)/);
  });

  // Last: it leaves a link behind that no master key opens.
  it("re-encrypts publisher keys, and exits 1 while one is left under another key", async () => {
    const masterKey = masterKeyId(TEST_MASTER_KEY);
    expect((await admin(["reencrypt-publisher-keys"])).stdout).toBe(
      `master key ${masterKey}: 0 publisher keys re-encrypted, 0 not under it (0 unreadable); ` +
        "0 webhook signing secrets re-encrypted, 0 not under it (0 unreadable)\n",
    );
    // A link whose stored key no master key of the service opens.
    await seedCampaign(db.database.prisma);
    const failed = await failure(admin(["reencrypt-publisher-keys"]));
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe(
      `master key ${masterKey}: 0 publisher keys re-encrypted, 1 not under it (1 unreadable); ` +
        "0 webhook signing secrets re-encrypted, 0 not under it (0 unreadable)\n",
    );
    expect(failed.stderr).toBe(
      `error: 1 secrets are not under master key ${masterKey} yet: keep ENCORE_MASTER_KEY_PREVIOUS; ` +
        "the service's log names the links or endpoints no key opens\n",
    );
  });
});
