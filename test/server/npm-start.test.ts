import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { serviceNodeOptions } from "../support/service-node-options.js";
import { freshDataDir, waitFor } from "../support/service-process.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// What the README tells an operator to run: `npm start` builds when stale, and the service is
// npm's own child (exec), so a SIGTERM to npm reaches it and nothing is left behind.
describe("npm start", { timeout: 240_000 }, () => {
  it("runs the built service, and SIGTERM to npm stops the service cleanly", async () => {
    const dataDir = freshDataDir();
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        DATA_DIR: dataDir,
        PORT: "0",
        METRICS_PORT: "0",
      },
    });
    let output = "";
    npm.stdout.on("data", (chunk) => {
      output += chunk;
    });
    npm.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    let servicePid = 0;
    try {
      await waitFor(() => output.includes('"msg":"listening"') || npm.exitCode !== null, "the listener");
      const line = output.split("\n").find((l) => l.includes('"msg":"listening"')) ?? "{}";
      const { url } = JSON.parse(line) as { url: string };
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      servicePid = (JSON.parse(readFileSync(join(dataDir, "service.owner"), "utf8")) as { pid: number }).pid;
      // The compiled entry, run by plain node: no TypeScript loader in the service process, only
      // the install and build check preloaded before it (scripts/ensure-built.mjs), and V8's
      // young generation at the size the image runs it with (docs/deploy.md, Memory).
      expect(readFileSync(`/proc/${servicePid}/cmdline`, "utf8").split("\0")).toEqual([
        "node",
        ...serviceNodeOptions(),
        "--import",
        "./scripts/ensure-built.mjs",
        "dist/src/main.js",
        "",
      ]);
      npm.kill("SIGTERM");
      await exited;
      await waitFor(() => !alive(servicePid), "the service to exit");
      expect(output).toContain('"msg":"stopped"');
    } finally {
      npm.kill("SIGKILL");
      if (servicePid && alive(servicePid)) process.kill(servicePid, "SIGKILL");
    }
  });
});
