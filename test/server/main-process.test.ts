import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: mkdtempSync(join(tmpdir(), "encore-main-")), ...env },
  });
  let text = "";
  child.stdout?.on("data", (chunk) => {
    text += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    text += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => text, exited };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the service process", () => {
  it.each([
    ["PORT", { PORT: "http" }, /^invalid configuration: PORT /],
    [
      "ENCORE_MASTER_KEY",
      { DATABASE_URL: "postgresql://x@127.0.0.1/x", ENCORE_MASTER_KEY: "short", OPERATOR_TOKEN: "x".repeat(30) },
      /^invalid configuration: ENCORE_MASTER_KEY must be 32 bytes, base64/,
    ],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }, /^invalid configuration: LOG_LEVEL /],
  ])("refuses a bad %s at start with one clear line", async (_, env, line) => {
    const service = start(env);
    expect(await service.exited).toBe(1);
    const lines = service.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });

  it("serves with the embedded database, is ready, and stops cleanly on SIGTERM", async () => {
    const service = start({ PORT: "0", LOG_LEVEL: "info" });
    try {
      await waitFor(() => service.output().includes('"msg":"listening"'), "the listener");
      const url = JSON.parse(
        service
          .output()
          .split("\n")
          .find((l) => l.includes('"msg":"listening"')) ?? "{}",
      ).url;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const res = await fetch(`${url}/v1/public/funding:get`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ campaignKey: "nope" }),
      });
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      service.child.kill("SIGTERM");
      expect(await service.exited).toBe(0);
      expect(service.output()).toContain('"msg":"stopped"');
    } finally {
      service.child.kill("SIGKILL");
    }
  });
});
