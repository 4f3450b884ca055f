import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../management/management-fixture.js";
import { selfSignedCertificate } from "../support/certificate.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { type ClientStudio, exampleOutput, seedClientStudio } from "./client-fixture.js";
import { runDocRecipe } from "./doc-recipe.js";
import { createGoWorkspace, type GoWorkspace, goAvailable } from "./go-toolchain.js";

// The Go client (clients/go) against the live service: its own tests and the example program of
// docs/clients.md, built offline from Debian's Go packages.
const hasGo = await goAvailable();

describe.skipIf(!hasGo)("Go client against a live service", () => {
  let harness: Harness;
  let workspace: GoWorkspace;
  let env: Record<string, string>;
  let studio: ClientStudio;
  let tlsServer: TestServer;
  let certDir: string;

  beforeAll(async () => {
    harness = await startHarness();
    workspace = await createGoWorkspace();
    studio = await seedClientStudio(harness);
    // The same service and database, served over TLS too.
    certDir = mkdtempSync(join(tmpdir(), "encore-go-tls-"));
    const tls = selfSignedCertificate("127.0.0.1", certDir);
    tlsServer = await startTestServer({ db: harness.server.db, tls });
    env = {
      ENCORE_TLS_ADDR: `127.0.0.1:${tlsServer.port}`,
      ENCORE_TLS_CA: tls.certFile,
      ENCORE_ADDR: `127.0.0.1:${harness.server.port}`,
      ENCORE_CLEARTEXT: "1",
      ENCORE_API_KEY: studio.apiKey,
      ENCORE_ACCOUNT: studio.accountName,
      ENCORE_CAMPAIGN_KEY: studio.campaignKey,
    };
  });

  afterAll(async () => {
    await workspace?.close();
    await tlsServer?.close();
    await harness?.close();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it("builds and vets", async () => {
    await workspace.go(["build", "./..."]);
    await workspace.go(["vet", "./..."]);
  }, 240_000);

  it("passes its tests over gRPC", async () => {
    const { stdout } = await workspace.go(["test", "-count=1", "-v", "./encore/"], env);
    // Every live test ran: none skipped for want of the service.
    for (const name of [
      "TestPublicFundingNeedsNoKey",
      "TestManagementCallsSendTheKey",
      "TestOperationsClientReachesTheService",
      "TestReasonOfARefusal",
      "TestTLSWithAPIKey",
    ]) {
      expect(stdout).toContain(`--- PASS: ${name}`);
    }
    expect(stdout).not.toContain("--- SKIP");
  }, 240_000);

  it("runs docs/clients.md's recipe word for word: a GOPATH of Debian's packages, then the example program", async () => {
    const home = mkdtempSync(join(tmpdir(), "encore-go-recipe-"));
    try {
      const stdout = await runDocRecipe("go", {
        placeholders: {
          "$HOME/encore-gopath": join(home, "encore-gopath"),
          "127.0.0.1:8080": env.ENCORE_ADDR ?? "",
          "ek_...": studio.apiKey,
          "accounts/...": studio.accountName,
          "ck_...": studio.campaignKey,
        },
        cwd: resolve(import.meta.dirname, "../.."),
        env: { ...process.env, GOFLAGS: "" },
        timeoutMs: 240_000,
      });
      expect(stdout.trim().split("\n")).toEqual(exampleOutput(studio));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 240_000);
});
