import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../management/management-fixture.js";
import { CHROMIUM, launchChromium } from "../support/chromium.js";
import { type ClientStudio, exampleOutput, seedClientStudio } from "./client-fixture.js";
import { runDocRecipe } from "./doc-recipe.js";

// The TypeScript client as a user gets it: docs/clients.md's recipe, run word for word, packs
// clients/ts, installs the tarball with its peers into an empty project and runs the example
// against the live service; the other tests use that project.
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const PACKAGE_DIR = join(ROOT, "clients/ts");
// CI installs Debian's chromium and sets REQUIRE_CHROMIUM=1.
const PEERS = ["@connectrpc/connect", "@connectrpc/connect-node", "@connectrpc/connect-web", "@bufbuild/protobuf"];
const PACKAGE_VERSION: string = JSON.parse(await readFile(join(PACKAGE_DIR, "package.json"), "utf8")).version;

// npm run-script exports npm_config_* and npm_package_* into the test's environment; a child
// npm must not inherit them (npm_config_local_prefix would install into this repository).
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, ...extra };
}

async function installedVersion(project: string, name: string): Promise<string> {
  return JSON.parse(await readFile(join(project, "node_modules", name, "package.json"), "utf8")).version;
}

/**
 * The lowest version of a peer the package's range allows (`^2.1.2`: 2.1.2). The connect
 * packages pin each other exactly, and connect-node 2.2 declares Node >= 22, so a Node 20 user
 * installs the 2.1 line (docs/clients.md's recipe does): the package is tested at its lowest connect
 * peers, the service at the newest.
 */
async function lowestPeer(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(PACKAGE_DIR, "package.json"), "utf8"));
  const range: string = manifest.peerDependencies[name];
  const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (!lowest) throw new Error(`peer range of ${name} is not ^x.y.z: ${range}`);
  return lowest;
}

// Typings that are real: a wrong field type fails to compile.
const CONSUMER_TS = `
import { createClient } from "@connectrpc/connect";
import { CampaignService, createEncoreClients, errorReason, type PublicFunding } from "@encore-campaigns/client";
import { createNodeTransport } from "@encore-campaigns/client/node";
import { createWebTransport } from "@encore-campaigns/client/web";

const clients = createEncoreClients(createNodeTransport({ baseUrl: "http://127.0.0.1:1", apiKey: "ek_x", protocol: "grpc" }));
const funding: Promise<PublicFunding> = clients.campaigns.getPublicFunding({ campaignKey: "ck_x" });
// @ts-expect-error campaignKey is a string
void clients.campaigns.getPublicFunding({ campaignKey: 1 });
const web = createClient(CampaignService, createWebTransport({ baseUrl: "https://example.com", protocol: "grpc-web" }));
const reason: string | undefined = errorReason(new Error("x"));
export { funding, reason, web };
`;

// Every protocol the package offers, against the live service.
const CHECK_MJS = `
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { CampaignService, createEncoreClients, errorReason } from "@encore-campaigns/client";
import { createNodeTransport } from "@encore-campaigns/client/node";
import { createWebTransport } from "@encore-campaigns/client/web";

const { ENCORE_URL: baseUrl, ENCORE_API_KEY: apiKey, ENCORE_ACCOUNT: parent, ENCORE_CAMPAIGN_KEY: campaignKey } = process.env;
const transports = {
  "node connect": (key) => createNodeTransport({ baseUrl, apiKey: key }),
  "node connect binary": (key) => createNodeTransport({ baseUrl, apiKey: key, useBinaryFormat: true }),
  "node grpc-web": (key) => createNodeTransport({ baseUrl, apiKey: key, protocol: "grpc-web" }),
  "node grpc": (key) => createNodeTransport({ baseUrl, apiKey: key, protocol: "grpc" }),
  "web connect": (key) => createWebTransport({ baseUrl, apiKey: key }),
  "web grpc-web": (key) => createWebTransport({ baseUrl, apiKey: key, protocol: "grpc-web" }),
};
const results = {};
for (const [name, transport] of Object.entries(transports)) {
  const anonymous = createClient(CampaignService, transport(undefined));
  const clients = createEncoreClients(transport(apiKey));
  const funding = await anonymous.getPublicFunding({ campaignKey });
  const withoutKey = await anonymous.listCampaigns({ parent }).then(() => "answered", (e) => Code[ConnectError.from(e).code]);
  const list = await clients.campaigns.listCampaigns({ parent });
  const refusal = await clients.campaigns
    .updateCampaign({ campaign: { name: list.campaigns[0].name, etag: "stale", displayName: "x" }, updateMask: { paths: ["display_name"] } })
    .then(() => "answered", (e) => [Code[ConnectError.from(e).code], errorReason(e)]);
  const unknownKey = await anonymous.getPublicFunding({ campaignKey: "ck_unknown" }).then(() => "answered", (e) => [Code[ConnectError.from(e).code], errorReason(e) ?? null]);
  const operations = await clients.operations.listOperations({ name: "operations" });
  results[name] = {
    funded: funding.funded,
    units: funding.balance?.units.toString(),
    withoutKey,
    campaigns: list.campaigns.map((c) => c.name),
    refusal,
    unknownKey,
    operations: operations.operations.length,
  };
}
console.log(JSON.stringify(results));
`;

// A page using the browser entry (connect-web over fetch) for a game's public read.
const BROWSER_MJS = `
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { CampaignService, errorReason } from "@encore-campaigns/client";
import { createWebTransport } from "@encore-campaigns/client/web";

const query = new URLSearchParams(location.search);
const baseUrl = query.get("api");
const campaignKey = query.get("key");
try {
  const results = {};
  for (const protocol of ["connect", "grpc-web"]) {
    const campaigns = createClient(CampaignService, createWebTransport({ baseUrl, protocol }));
    const funding = await campaigns.getPublicFunding({ campaignKey });
    const unknownKey = await campaigns
      .getPublicFunding({ campaignKey: "ck_unknown" })
      .then(() => "answered", (e) => [Code[ConnectError.from(e).code], errorReason(e) ?? null]);
    results[protocol] = { funded: funding.funded, units: funding.balance?.units.toString(), unknownKey };
  }
  window.results = results;
} catch (error) {
  window.results = { error: String(error) };
}
`;

/** An import map for the page: each package's ESM exports, as installed in the project. */
async function importMap(project: string, names: string[]): Promise<Record<string, string>> {
  const imports: Record<string, string> = {};
  for (const name of names) {
    const manifest = JSON.parse(await readFile(join(project, "node_modules", name, "package.json"), "utf8"));
    for (const [subpath, target] of Object.entries<string | Record<string, string>>(manifest.exports)) {
      const file = typeof target === "string" ? target : (target.import ?? target.default);
      if (!file || subpath.includes("*") || subpath.endsWith(".json")) continue;
      imports[join(name, subpath)] = `/${join("node_modules", name, file)}`;
    }
  }
  return imports;
}

/** Serves the project's files, and at / a page running BROWSER_MJS with the import map. */
function servePage(project: string, imports: Record<string, string>): Promise<Server> {
  const page = `<!doctype html><script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module" src="/browser.mjs"></script>`;
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" }).end(page);
      return;
    }
    const body = await readFile(join(project, path)).catch(() => undefined);
    if (!body || path.includes("..")) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "text/javascript" }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("TypeScript client package, packed and installed into an empty project", () => {
  let harness: Harness;
  let studio: ClientStudio;
  let work: string;
  let project: string;
  let packedFiles: string[];
  let env: NodeJS.ProcessEnv;
  let recipeOutput: string;

  beforeAll(async () => {
    harness = await startHarness();
    studio = await seedClientStudio(harness);
    env = cleanEnv({
      ENCORE_URL: harness.server.baseUrl,
      ENCORE_API_KEY: studio.apiKey,
      ENCORE_ACCOUNT: studio.accountName,
      ENCORE_CAMPAIGN_KEY: studio.campaignKey,
    });
    work = await mkdtemp(join(tmpdir(), "encore-ts-client-"));
    project = join(work, "my-app");
    // npm pack runs the package's prepack script, which compiles src/ into dist/.
    recipeOutput = await runDocRecipe("ts", {
      placeholders: {
        "/tmp": work,
        "my-app": project,
        "http://127.0.0.1:8080": harness.server.baseUrl,
        "ek_...": studio.apiKey,
        "accounts/...": studio.accountName,
        "ck_...": studio.campaignKey,
      },
      cwd: ROOT,
      env: cleanEnv(),
      timeoutMs: 300_000,
    });
    const { stdout } = await run("tar", ["-tzf", join(work, `encore-campaigns-client-${PACKAGE_VERSION}.tgz`)]);
    packedFiles = stdout
      .trim()
      .split("\n")
      .map((path) => path.replace(/^package\//, ""));
    // The browser entry's peer, at the version of the connect the recipe installed.
    const connect = await installedVersion(project, "@connectrpc/connect");
    await run("npm", ["install", "--no-audit", "--no-fund", `@connectrpc/connect-web@${connect}`], {
      cwd: project,
      env: cleanEnv(),
      timeout: 180_000,
    });
  }, 420_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    await harness?.close();
  });

  it("ships its compiled code and typings, and depends on nothing of the server", async () => {
    expect(packedFiles).toContain("dist/index.js");
    expect(packedFiles).toContain("dist/index.d.ts");
    expect(packedFiles).toContain("dist/node.d.ts");
    expect(packedFiles).toContain("dist/web.d.ts");
    expect(packedFiles.every((path) => path.startsWith("dist/") || ["package.json", "README.md"].includes(path))).toBe(
      true,
    );
    const installed = JSON.parse(
      await readFile(join(project, "node_modules/@encore-campaigns/client/package.json"), "utf8"),
    );
    expect(installed.dependencies).toBeUndefined();
    expect(Object.keys(installed.peerDependencies).sort()).toEqual([...PEERS].sort());
    // What the recipe installed is what the package's ranges start at: the calls below run there.
    for (const name of ["@connectrpc/connect", "@connectrpc/connect-node"]) {
      expect({ name, version: await installedVersion(project, name) }).toEqual({
        name,
        version: await lowestPeer(name),
      });
    }
  });

  it("accepts, as peers, the versions the service itself is built with", async () => {
    // ^x.y.z: the same major, and not below x.y.z (compared as numbers, part by part).
    const parts = (version: string) => version.split(".").map(Number) as [number, number, number];
    for (const name of PEERS) {
      const [major, minor, patch] = parts(await lowestPeer(name));
      const version = JSON.parse(await readFile(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
      const [usedMajor, usedMinor, usedPatch] = parts(version);
      const accepted = usedMajor === major && (usedMinor === minor ? usedPatch >= patch : usedMinor > minor);
      expect({ name, version, accepted }).toMatchObject({ accepted: true });
    }
  });

  it("type-checks a consumer against its typings", async () => {
    await writeFile(join(project, "consumer.ts"), CONSUMER_TS);
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: project });
  }, 60_000);

  it("runs docs/clients.md's recipe word for word, ending with the example's output over Connect", () => {
    expect(recipeOutput.trim().split("\n").slice(-3)).toEqual(exampleOutput(studio));
  });

  it("runs the package README's quick start", async () => {
    await copyFile(join(PACKAGE_DIR, "examples/quick-start.mjs"), join(project, "quick-start.mjs"));
    const { stdout } = await run(process.execPath, ["quick-start.mjs"], { cwd: project, env, timeout: 30_000 });
    expect(stdout.trim().split("\n")).toEqual(["funded: true", "refused: ETAG_MISMATCH"]);
  }, 60_000);

  it.skipIf(!existsSync(CHROMIUM) && !process.env.REQUIRE_CHROMIUM)(
    "reads public funding in Chromium over Connect and gRPC-web, from an origin the operator allowed",
    async () => {
      await writeFile(join(project, "browser.mjs"), BROWSER_MJS);
      const imports = await importMap(project, ["@encore-campaigns/client", ...PEERS]);
      const pageServer = await servePage(project, imports);
      const address = pageServer.address();
      if (!address || typeof address === "string") throw new Error("the page server has no port");
      const origin = `http://127.0.0.1:${address.port}`;
      await harness.db.operatorSettings.update({ where: { id: 1 }, data: { allowedOrigins: [origin] } });
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const query = new URLSearchParams({ api: harness.server.baseUrl, key: studio.campaignKey });
        await page.goto(`${origin}/?${query}`);
        const results = await page
          .waitForFunction(() => (globalThis as { results?: unknown }).results, null, { timeout: 30_000 })
          .then((handle) => handle.jsonValue());
        const expected = { funded: true, units: "25", unknownKey: ["NotFound", null] };
        expect(results).toEqual({ connect: expected, "grpc-web": expected });
      } finally {
        await browser.close();
        await new Promise((resolve) => pageServer.close(resolve));
      }
    },
    90_000,
  );

  it("calls the service over Connect, gRPC-web and gRPC from Node, and Connect and gRPC-web over fetch", async () => {
    await writeFile(join(project, "check.mjs"), CHECK_MJS);
    const { stdout } = await run(process.execPath, ["check.mjs"], { cwd: project, env, timeout: 60_000 });
    const results = JSON.parse(stdout);
    const expected = {
      funded: true,
      units: "25",
      withoutKey: "Unauthenticated",
      campaigns: [studio.campaignName],
      refusal: ["Aborted", "ETAG_MISMATCH"],
      unknownKey: ["NotFound", null],
      operations: 0,
    };
    expect(results).toEqual({
      "node connect": expected,
      "node connect binary": expected,
      "node grpc-web": expected,
      "node grpc": expected,
      "web connect": expected,
      "web grpc-web": expected,
    });
  }, 90_000);
});
