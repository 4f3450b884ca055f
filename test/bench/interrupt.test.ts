import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { descendantsOf, running } from "../../bench/process-cpu.js";
import { ROOT } from "../support/built-entries.js";

// `npm run bench` stopped half-way (Ctrl-C, `kill`, or killed outright) leaves nothing behind:
// no process of its tree, no database it made (bench/interrupts.ts, bench/bench-child.ts). Until
// 2026-11-28 a `kill` left the target process, the service it ran and the service's database.

const RUN = join(ROOT, "dist/bench/run.js");
const serverUrl = process.env.TEST_DATABASE_URL;
const hasPgbench = (() => {
  try {
    execFileSync("pgbench", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The purchase half of the bench, held in its warm-up (a million purchases) once it gets there;
 * with `group`, in a process group of its own.
 */
function startBench(group: boolean): ChildProcess {
  return spawn(process.execPath, [RUN, "purchase"], {
    cwd: ROOT,
    // A process group of its own, as a shell's foreground job that Ctrl-C reaches whole.
    detached: group,
    env: {
      // As from a shell: under VITEST the bench's database helpers would ask vitest for a template.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST"))),
      BENCH_DATABASE_URL: serverUrl,
      BENCH_DURATION_S: "1",
      BENCH_PURCHASE_WARMUP: "1000000",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");

async function until<T>(
  what: string,
  find: () => T | undefined | Promise<T | undefined>,
  withinMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The bench's processes, and the database `made` finds among them, once it is there. */
async function benchTree(
  bench: ChildProcess,
  made: (pid: number) => string | undefined,
  stderr: () => string,
): Promise<{ pids: number[]; database: string }> {
  return until("the bench's database", () => {
    if (bench.exitCode !== null)
      throw new Error(`the bench exited (${bench.exitCode}) before it made its database: ${stderr()}`);
    const pids = descendantsOf(bench.pid ?? 0);
    for (const pid of pids) {
      try {
        const database = made(pid);
        if (database) return { pids, database };
      } catch {
        // Gone while read: the next look finds the rest.
      }
    }
    return undefined;
  });
}

/** The service's database: the DATABASE_URL of the process running dist/src/main.js. */
function serviceDatabase(pid: number): string | undefined {
  if (!commandOf(pid).some((arg) => arg.endsWith("dist/src/main.js"))) return undefined;
  const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  const url = env.find((line) => line.startsWith("DATABASE_URL="))?.slice("DATABASE_URL=".length);
  return url && new URL(url).pathname.slice(1);
}

/** pgbench -N's scratch database, from its command line. */
function pgbenchDatabase(pid: number): string | undefined {
  const command = commandOf(pid);
  if (!command[0]?.endsWith("pgbench") || !command.includes("-N")) return undefined;
  const url = command.find((arg) => arg.startsWith("postgresql://"));
  return url && new URL(url).pathname.slice(1);
}

describe.skipIf(!serverUrl)("npm run bench, interrupted", { timeout: 120_000 }, () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  const benches: ChildProcess[] = [];
  const databaseExists = async (name: string) =>
    (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;

  // Should a test fail, what it started is not left running for the next.
  const started: number[] = [];
  afterEach(() => {
    for (const bench of benches.splice(0)) bench.kill("SIGKILL");
    for (const pid of started.splice(0)) if (running(pid)) process.kill(pid, "SIGKILL");
  });
  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
  });

  /** Signals the bench, or with `group` every process of its group (Ctrl-C in a terminal). */
  async function interrupt(signal: NodeJS.Signals, made: (pid: number) => string | undefined, group = false) {
    const bench = startBench(group);
    benches.push(bench);
    let stderr = "";
    bench.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    const { pids, database } = await benchTree(bench, made, () => stderr);
    started.push(...pids);
    expect(await databaseExists(database)).toBe(true);
    const exited = once(bench, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    if (group) process.kill(-(bench.pid ?? 0), signal);
    else bench.kill(signal);
    const [code, bySignal] = await exited;
    // After a SIGKILL the children notice on their own, so give them a while.
    await until("every process of the bench's tree ended", () => (pids.some(running) ? undefined : true), 30_000);
    const left = await until(
      `${database} dropped`,
      async () => ((await databaseExists(database)) ? undefined : false),
      10_000,
    ).catch(() => true);
    expect(left, `${database} is left; the bench said: ${stderr}`).toBe(false);
    return { code, bySignal, stderr };
  }

  it("on SIGTERM, stops the target and its service, drops the service's database, and exits 143", async () => {
    const { code, stderr } = await interrupt("SIGTERM", serviceDatabase);
    expect(code).toBe(143);
    expect(stderr).toContain("SIGTERM: stopping the bench's processes and dropping its databases");
  });

  it("killed outright (SIGKILL), its children still end and drop the service's database", async () => {
    const { bySignal } = await interrupt("SIGKILL", serviceDatabase);
    expect(bySignal).toBe("SIGKILL");
  });

  it("on Ctrl-C (SIGINT to its whole process group), the same, and exits 130", async () => {
    const { code } = await interrupt("SIGINT", serviceDatabase, true);
    expect(code).toBe(130);
  });

  it.skipIf(!hasPgbench)("on SIGINT during pgbench, stops pgbench and drops its scratch database", async () => {
    const { code } = await interrupt("SIGINT", pgbenchDatabase);
    expect(code).toBe(130);
  });
});
