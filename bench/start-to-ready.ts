import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { serviceNodeOptions } from "../test/support/service-node-options.js";
import { withoutBuildCheck } from "./child-exec-argv.js";
import { interruption, undoneOnInterrupt } from "./interrupts.js";

// The service's entry beside this module: dist/src/main.js when the benchmark runs built (npm run
// bench), src/main.ts under a TypeScript loader.
const MAIN = fileURLToPath(new URL(`../src/main${import.meta.url.slice(-3)}`, import.meta.url));
// The checkout, where `npm start` is run: two levels up from dist/bench/, one from bench/.
const ROOT = fileURLToPath(new URL(import.meta.url.endsWith(".js") ? "../../" : "../", import.meta.url));

export interface StartTime {
  /** Wall clock from spawn to the first 200 of /readyz. */
  ms: number;
  /**
   * CPU used until then (user + system, every thread; Linux only): on a machine shared with
   * other work the wall clock mostly measures the wait for a core. For `npm start`, npm's, its
   * pre-script's and the service's together.
   */
  cpuMs: number | undefined;
  /**
   * The service's main thread's share of that CPU: what runs one step after another (loading
   * code, opening the database); the rest (compiling WebAssembly, garbage collection) runs on
   * other threads alongside it.
   */
  mainThreadCpuMs: number | undefined;
}

export interface StartTimes {
  /** The first start on an empty DATA_DIR: creates the embedded database and migrates it. */
  first: StartTime;
  /** Later starts on the same DATA_DIR (what an operator's restart costs), plain `node`. */
  warm: StartTime[];
  /** The same warm start through `npm start` (what the README says to run): npm and ensure-built too. */
  warmNpmStart: StartTime[];
}

type Child = ChildProcessByStdio<null, Readable, null>;

/**
 * Start to ready as an operator sees it, with the embedded database or PostgreSQL: from
 * spawning the service process until `/readyz` answers 200, with plain `node` and npm start's
 * node options (what `npm start` runs after its checks, and what the image runs) and with
 * `npm start` itself.
 */
export async function measureStartToReady(warmStarts: number, databaseUrl?: string): Promise<StartTimes> {
  interruption.throwIfAborted();
  const dataDir = mkdtempSync(join(tmpdir(), "encore-bench-start-"));
  // The service being started, ended should the bench be interrupted, before its DATA_DIR goes.
  let starting: Child | undefined;
  const cleanUp = undoneOnInterrupt(async () => {
    if (starting && starting.exitCode === null && starting.signalCode === null) {
      const exited = new Promise((resolve) => starting?.once("exit", resolve));
      starting.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  // With a PostgreSQL URL, the production set-up: the database is the server's, secrets are given.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DATA_DIR: dataDir,
    PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    ...(databaseUrl && {
      DATABASE_URL: databaseUrl,
      ENCORE_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
      OPERATOR_TOKEN: "bench-operator-token-0123456789",
    }),
  };
  // Plain node as the image runs it: the parent's loader, if any, but not the build check that
  // `npm run bench` preloads (until 2026-11-28 every plain start ran it too).
  const node = () =>
    (starting = spawn(process.execPath, [...withoutBuildCheck(process.execArgv), ...serviceNodeOptions(), MAIN], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    }));
  // npm reads its configuration from HOME; --silent: npm's own banner lines are not the service's.
  const npmStart = () =>
    (starting = spawn("npm", ["start", "--silent"], {
      cwd: ROOT,
      env: { ...env, HOME: process.env.HOME ?? "" },
      stdio: ["ignore", "pipe", "inherit"],
    }));
  try {
    const first = await startOnce(node);
    const warm: StartTime[] = [];
    for (let i = 0; i < warmStarts; i++) warm.push(await startOnce(node));
    const warmNpmStart: StartTime[] = [];
    for (let i = 0; i < warmStarts; i++) warmNpmStart.push(await startOnce(npmStart));
    return { first, warm, warmNpmStart };
  } finally {
    await cleanUp();
  }
}

// A service that listens but never gets ready (a database it cannot open, a query compiler that
// fails to load) kept the bench polling /readyz for good; 60 s is some 20 times the slowest start.
const READY_WITHIN_MS = 60_000;

async function startOnce(spawnService: () => Child): Promise<StartTime> {
  interruption.throwIfAborted();
  const started = performance.now();
  const child = spawnService();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let servicePid: number | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk;
        const line = text.split("\n").find((l) => l.includes('"msg":"listening"'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once("exit", (code) => reject(new Error(`the service exited during start (${code})`)));
    });
    const pid = serviceOf(child.pid ?? 0);
    servicePid = pid;
    while ((await fetch(`${url}/readyz`)).status !== 200) {
      if (performance.now() - started > READY_WITHIN_MS) {
        throw new Error(`the service was not ready ${READY_WITHIN_MS / 1000} s after its start`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - started;
    const service = cpuOf(`/proc/${pid}/stat`);
    // Under `npm start` the service is npm's child (exec): npm's own CPU and that of the
    // children it has waited for (the pre-script) are added.
    const npm = pid === child.pid ? { own: 0, children: 0 } : cpuOf(`/proc/${child.pid}/stat`);
    return {
      ms,
      cpuMs: service && npm && service.own + npm.own + npm.children,
      mainThreadCpuMs: cpuOf(`/proc/${pid}/task/${pid}/stat`)?.own,
    };
  } finally {
    child.kill("SIGTERM");
    await exited;
    // The next start on this DATA_DIR would be refused while this service still holds it.
    while (servicePid !== undefined && alive(servicePid)) await new Promise((r) => setTimeout(r, 5));
  }
}

/** The service process: `pid` itself, or under `npm start` npm's child running dist/src/main.js. */
function serviceOf(pid: number): number {
  const cmdline = (of: number) => readFileSync(`/proc/${of}/cmdline`, "utf8");
  if (cmdline(pid).includes("src/main.")) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").map(Number);
  const service = children.find((child) => cmdline(child).includes("dist/src/main.js"));
  if (service === undefined) throw new Error(`no service process under npm (pid ${pid})`);
  return service;
}

// /proc/<pid>/stat fields 14 to 17 (after the parenthesised name): utime, stime and the same for
// waited-for children, in clock ticks, 100 per second on Linux.
function cpuOf(statFile: string): { own: number; children: number } | undefined {
  try {
    const stat = readFileSync(statFile, "utf8");
    const fields = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
    return { own: (utime + stime) * 10, children: (cutime + cstime) * 10 };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
