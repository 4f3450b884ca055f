import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CSP } from "../../src/server/console-route.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The console's static route, over a build folder shaped as Vite writes it.
const INDEX = '<!doctype html><script type="module" src="/console/assets/index-Ab12Cd34.js"></script>';

function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "console-build-"));
  mkdirSync(join(dir, "assets"));
  mkdirSync(join(dir, ".vite"));
  writeFileSync(join(dir, "index.html"), INDEX);
  writeFileSync(join(dir, "assets/index-Ab12Cd34.js"), "console.log('console')");
  writeFileSync(join(dir, "assets/index-Ab12Cd34.js.map"), "{}");
  writeFileSync(join(dir, "assets/index-Ef56Gh78.css"), "body{}");
  writeFileSync(join(dir, "favicon.svg"), "<svg/>");
  writeFileSync(join(dir, ".vite/manifest.json"), "{}");
  return dir;
}

describe("the console route", () => {
  let server: TestServer;
  let unbuilt: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ consoleDir: fakeBuild(), env: { STOREFRONT_SHARE_PERCENT: "25" } });
    unbuilt = await startTestServer({ db: server.db, consoleDir: join(tmpdir(), "no-console-build-here") });
  });
  afterAll(async () => {
    await unbuilt.close();
    await server.close();
  });

  const get = (path: string, headers: Record<string, string> = {}, base = server.baseUrl) =>
    fetch(`${base}${path}`, { headers, redirect: "manual" });

  it("serves index.html at /console/ with a strict CSP, revalidated, and 304 while unchanged", async () => {
    const res = await get("/console/");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("script-src 'self';");
    expect(CONSOLE_CSP).not.toContain("unsafe-inline");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const again = await get("/console/", { "if-none-match": res.headers.get("etag") ?? "" });
    expect(again.status).toBe(304);
  });

  it("answers client-side routes with index.html", async () => {
    for (const path of ["/console/campaigns/abc", "/console/links", "/console/purchases?state=x"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX);
    }
  });

  it("redirects /console to /console/", async () => {
    const res = await get("/console");
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("/console/");
  });

  it("serves hashed assets as immutable, other files revalidated", async () => {
    const script = await get("/console/assets/index-Ab12Cd34.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(script.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    const style = await get("/console/assets/index-Ef56Gh78.css");
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const icon = await get("/console/favicon.svg");
    expect(icon.headers.get("cache-control")).toBe("no-cache");
    const head = await fetch(`${server.baseUrl}/console/assets/index-Ab12Cd34.js`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String("console.log('console')".length));
  });

  it("answers 404 for a missing asset, source maps and the Vite manifest, and never a file outside the build", async () => {
    for (const path of [
      "/console/assets/index-Old00000.js",
      "/console/assets/index-Ab12Cd34.js.map",
      "/console/.vite/manifest.json",
    ]) {
      expect((await get(path)).status).toBe(404);
    }
    for (const path of ["/console/../package.json", "/console/%2e%2e/package.json", "/console/..%2fpackage.json"]) {
      const res = await get(path);
      expect(await res.text()).not.toContain('"name"');
    }
  });

  it("serves the storefront's share the offer editor shows, never cached", async () => {
    const res = await get("/console/settings.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ storefrontSharePercent: 25 });
  });

  it("answers other methods 405", async () => {
    const res = await fetch(`${server.baseUrl}/console/`, { method: "POST", body: "x" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });

  it("says in words that the console is not built when there is no build, on every path", async () => {
    for (const path of ["/console/", "/console/campaigns/abc", "/console/assets/index-Ab12Cd34.js"]) {
      const res = await get(path, {}, unbuilt.baseUrl);
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await res.text()).toBe(
        "The studio console is not built here: `npm run build` writes it to dist/console/.\n",
      );
    }
    // The API is unaffected.
    expect((await get("/healthz", {}, unbuilt.baseUrl)).status).toBe(200);
  });
});
