import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// scripts/bench-turns.mjs over two stand-in checkouts whose dist/bench/run.js print what
// bench/run.ts prints (its table and its CPU-by-process lines), a figure per run from a list, so
// the medians, the ratios, the rows only one checkout has and the rate target are checked
// without running a bench.
const script = fileURLToPath(new URL("../../scripts/bench-turns.mjs", import.meta.url));
const run = promisify(execFile);
const HOT = "complete purchases, 32 players, 1 hot campaign";
const SPREAD = "complete purchases, 32 players, 8 campaigns";

interface Figures {
  hotRate: number;
  spreadRate: number;
  hotCpu: number;
}

function benchOutput(f: Figures, extraRows: string[] = []): string {
  return [
    "",
    "npm run bench: 3s measured after 2s warm-up each; database PostgreSQL",
    "",
    "what | per s | p50 ms | p99 ms | service CPU ms/op | peak RSS MB | SQL/op | errors | ratio",
    "pgbench -N (simple update), 16 clients | 5000 |  |  |  |  |  | 0 | avg 3 ms",
    `${HOT} | ${f.hotRate} | 60.00 | 90.00 | ${f.hotCpu.toFixed(3)} | 140 | 6.0 | 0 | 10.0% of pgbench`,
    `${SPREAD} | ${f.spreadRate} | 55.00 | 80.00 | 1.000 | 138 | 6.0 | 0 | 11.0% of pgbench`,
    ...extraRows,
    "",
    "CPU a purchase or call by process (user + system, ms): the parties share this machine's cores, which bound the rate",
    `${HOT}: service ${f.hotCpu.toFixed(3)} (80 % user), PostgreSQL 1.500, simulator 0.35, load generator 0.200; 3.05 ms in all: 2 cores allow at most 655/s`,
    `${SPREAD}: service 1.000 (80 % user), PostgreSQL 1.250, simulator 0.33, load generator 0.200; 2.78 ms in all: 2 cores allow at most 719/s`,
    "",
    "targets:",
    "",
  ].join("\n");
}

/** A stand-in checkout whose bench prints `outputs[n]` at its nth run (or fails past them). */
function checkout(root: string, name: string, outputs: string[], withScript = false): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "dist/bench"), { recursive: true });
  writeFileSync(join(dir, "outputs.json"), JSON.stringify(outputs));
  writeFileSync(
    join(dir, "dist/bench/run.js"),
    `import { existsSync, readFileSync, writeFileSync } from "node:fs";
const count = existsSync("runs") ? Number(readFileSync("runs", "utf8")) : 0;
writeFileSync("runs", String(count + 1));
if (process.argv[2] !== "purchase") process.exit(9);
const output = JSON.parse(readFileSync("outputs.json", "utf8"))[count];
if (output === undefined) process.exit(3);
process.stdout.write(output);
`,
  );
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  if (withScript) {
    mkdirSync(join(dir, "scripts"));
    copyFileSync(script, join(dir, "scripts/bench-turns.mjs"));
  }
  return dir;
}

const env = { ...process.env, BENCH_DATABASE_URL: "postgresql://unused@127.0.0.1:1/none" };

describe("scripts/bench-turns.mjs", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("gives each shared row's medians in both checkouts, this over other, and the rate target per purchase row", async () => {
    root = mkdtempSync(join(tmpdir(), "bench-turns-test-"));
    const mine = checkout(
      root,
      "this",
      [
        benchOutput({ hotRate: 100, spreadRate: 170, hotCpu: 1.2 }),
        benchOutput({ hotRate: 300, spreadRate: 170, hotCpu: 1.0 }),
        benchOutput({ hotRate: 290, spreadRate: 171, hotCpu: 1.1 }),
      ],
      true,
    );
    // An older main: rows this checkout no longer has.
    const workers = ["complete purchases, 32 players, 1 hot campaign, WORKERS=2 | 400 | 1 | 2 | 3.000 | 300 | | 0 | "];
    const other = checkout(root, "other", [
      benchOutput({ hotRate: 190, spreadRate: 200, hotCpu: 2.0 }, workers),
      benchOutput({ hotRate: 210, spreadRate: 200, hotCpu: 2.0 }, workers),
      benchOutput({ hotRate: 200, spreadRate: 200, hotCpu: 2.0 }, workers),
    ]);

    const { stdout } = await run(process.execPath, [join(mine, "scripts/bench-turns.mjs"), other, "3"], { env });
    const summary = stdout.slice(stdout.lastIndexOf("bench-turns:"));
    expect(summary).toContain(
      `${HOT} | 290 / 200 (1.45x) | 60.00 / 60.00 (1.00x) | 90.00 / 90.00 (1.00x) | 1.100 / 2.000 (0.55x) | 1.500 / 1.500 (1.00x) | 140 / 140 (1.00x)`,
    );
    expect(summary).toContain(`${SPREAD} | 170 / 200 (0.85x) |`);
    expect(summary).toContain("pgbench -N (simple update), 16 clients | 5000 / 5000 (1.00x) |");
    expect(summary).toContain(
      "rows in one checkout only, left out: complete purchases, 32 players, 1 hot campaign, WORKERS=2",
    );
    expect(summary).toContain(`met     ${HOT}: rate >= 90 % of the other's: 145.0 %`);
    expect(summary).toContain(`MISSED  ${SPREAD}: rate >= 90 % of the other's: 85.0 %`);
  });

  it("fails when a run fails, and refuses a missing build or database", async () => {
    root = mkdtempSync(join(tmpdir(), "bench-turns-test-"));
    const mine = checkout(root, "this", [benchOutput({ hotRate: 1, spreadRate: 1, hotCpu: 1 })], true);
    const other = checkout(root, "other", []);
    await expect(
      run(process.execPath, [join(mine, "scripts/bench-turns.mjs"), other, "1"], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("ended with status 3"),
    });
    const { BENCH_DATABASE_URL: _, ...noDatabase } = env;
    await expect(
      run(process.execPath, [join(mine, "scripts/bench-turns.mjs"), other], { env: noDatabase }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("BENCH_DATABASE_URL") });
    await expect(run(process.execPath, [join(mine, "scripts/bench-turns.mjs"), root], { env })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("no dist/bench/run.js"),
    });
  });
});
