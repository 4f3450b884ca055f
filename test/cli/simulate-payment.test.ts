import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingService, CheckoutSession_State } from "../../gen/encore/billing/v1/billing_service_pb.js";
import { ADMIN_CLI_ENTRY, ROOT } from "../support/built-entries.js";
import { DOLLAR } from "../support/seed.js";
import { seedStudio } from "../support/seed-hosting.js";
import { startTestServer, TEST_MASTER_KEY, type TestServer } from "../support/test-server.js";

const run = promisify(execFile);

describe("npm run admin -- simulate-payment", () => {
  let server: TestServer;
  beforeAll(async () => {
    // No PAYMENT_WEBHOOK_SECRET: the service derives it from its master key, and so must the CLI.
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("signs checkout.paid with the secret derived from DATA_DIR's master key and credits the session once", async () => {
    const db = server.db.database.prisma;
    const studio = await seedStudio(db);
    const billing = server.client(BillingService, "connect", studio.tokens.BILLING);
    const session = await billing.createCheckoutSession({
      parent: `accounts/${studio.accountId}`,
      checkoutSession: {
        project: `accounts/${studio.accountId}/projects/${studio.projectId}`,
        amount: { currencyCode: "USD", units: 12n, nanos: 0 },
      },
    });
    const dataDir = mkdtempSync(join(tmpdir(), "encore-cli-"));
    writeFileSync(
      join(dataDir, "secrets.json"),
      JSON.stringify({ masterKey: TEST_MASTER_KEY.toString("base64"), operatorToken: "unused" }),
    );
    const { PAYMENT_WEBHOOK_SECRET: _, ENCORE_MASTER_KEY: __, ENCORE_URL: ___, ...env } = process.env;
    const simulate = () =>
      run(process.execPath, [ADMIN_CLI_ENTRY, "simulate-payment", "--session", session.name, "--url", server.baseUrl], {
        cwd: ROOT,
        env: { ...env, DATA_DIR: dataDir },
      });

    expect((await simulate()).stdout).toBe(`${session.name}: credited\n`);
    expect((await simulate()).stdout).toBe(`${session.name}: duplicate\n`);
    const project = await db.project.findUniqueOrThrow({ where: { id: studio.projectId } });
    expect(project.balanceNanos).toBe(12n * DOLLAR);
    expect((await billing.getCheckoutSession({ name: session.name })).state).toBe(CheckoutSession_State.COMPLETE);
  });

  it("fails with the service's message when the secret is not the service's", async () => {
    const failed = await run(
      process.execPath,
      [ADMIN_CLI_ENTRY, "simulate-payment", "--session", "accounts/a/checkoutSessions/b", "--url", server.baseUrl],
      { cwd: ROOT, env: { ...process.env, PAYMENT_WEBHOOK_SECRET: "not-the-service-secret-0123456789" } },
    ).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error: the webhook answered 401: /m);
  });
});
