import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// scripts/cpu-profile-share.mjs over two small profiles of V8's format, whose samples' times are
// known: each package's microseconds an operation, the difference, and the total without (idle).
const script = fileURLToPath(new URL("../../scripts/cpu-profile-share.mjs", import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "profile-share-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A profile whose frames each took `time` µs in one sample. */
function profile(name: string, frames: { url: string; functionName?: string; time: number }[]): string {
  const nodes = frames.map((frame, i) => ({
    id: i + 1,
    callFrame: { functionName: frame.functionName ?? "f", url: frame.url, lineNumber: 0, columnNumber: 0 },
  }));
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({ nodes, samples: nodes.map((node) => node.id), timeDeltas: frames.map((frame) => frame.time) }),
  );
  return file;
}

describe("scripts/cpu-profile-share.mjs", () => {
  it("divides each package's time by the operations, and compares two profiles", async () => {
    const main = profile("main.cpuprofile", [
      { url: "file:///app/node_modules/@prisma/client/runtime/client.js", time: 3000 },
      { url: "file:///app/node_modules/pg/lib/client.js", time: 1000 },
      { url: "file:///app/dist/src/main.js", time: 2000 },
      { url: "", functionName: "(idle)", time: 5000 },
    ]);
    const base = profile("base.cpuprofile", [
      { url: "file:///app/node_modules/pg/lib/client.js", time: 2000 },
      { url: "node:internal/streams/writable", time: 1000 },
    ]);

    const { stdout } = await run(process.execPath, [script, main, "10", base, "20"]);

    expect(stdout.split("\n").map((line) => line.trim().split(/\s*\|\s*|\s{2,}/))).toEqual(
      expect.arrayContaining([
        ["300.0", "0.0", "300.0", "@prisma/client"],
        ["200.0", "0.0", "200.0", "(this project's bundle)"],
        ["100.0", "100.0", "0.0", "pg"],
        ["0.0", "50.0", "-50.0", "node:internal"],
        ["500.0", "0.0", "500.0", "(idle)"],
        ["600.0", "150.0", "450.0", "all but (idle)"],
      ]),
    );
  });

  it("refuses a call without a number of operations", async () => {
    await expect(run(process.execPath, [script, join(dir, "main.cpuprofile")])).rejects.toMatchObject({ code: 2 });
  });
});
