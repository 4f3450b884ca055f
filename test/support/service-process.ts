import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { inject } from "vitest";
import { ROOT, SERVICE_ENTRY } from "./built-entries.js";
import type { MemoryCgroup } from "./memory-cgroup.js";
import { serviceNodeOptions } from "./service-node-options.js";

export interface ServiceProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** stderr alone: where start-up failures go. */
  errors(): string;
  exited: Promise<number | null>;
  /** Resolves with the base URL once the service logged that it listens. */
  listening(): Promise<string>;
}

/** An empty DATA_DIR: the service's first start makes the embedded database in it. */
export const freshDataDir = () => mkdtempSync(join(tmpdir(), "encore-main-"));

// What a running service holds in its DATA_DIR; a copy must not look held.
const LOCK_FILES = new Set(["service.lock", "service.owner"]);

/**
 * A DATA_DIR as a first start leaves it (the embedded database made and migrated, the local
 * secrets written): a copy of the one test/support/built-service.ts made for the run.
 */
export function migratedDataDir(): string {
  const dataDir = freshDataDir();
  cpSync(inject("migratedDataDir"), dataDir, {
    recursive: true,
    filter: (source) => !LOCK_FILES.has(basename(source)),
  });
  return dataDir;
}

/** How node is started: with these options (npm start's by default), inside this memory cgroup. */
export interface Launch {
  nodeOptions?: string[];
  memoryCgroup?: MemoryCgroup;
}

/**
 * The service as an operator runs it: the compiled build in its own process, with npm start's
 * node options, configured only by the environment. Without DATA_DIR in `env` it starts on a
 * copy of a migrated one (a restart, not a first start: tests of the first start pass
 * `freshDataDir()`).
 */
export function startService(env: Record<string, string>, launch: Launch = {}): ServiceProcess {
  const nodeOptions = launch.nodeOptions ?? serviceNodeOptions();
  const { execPath, execArgv } = launch.memoryCgroup?.spawnInside(nodeOptions) ?? {
    execPath: process.execPath,
    execArgv: nodeOptions,
  };
  const child = spawn(execPath, [...execArgv, SERVICE_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: env.DATA_DIR ?? migratedDataDir(),
      PORT: "0",
      // Parallel test files must not contend for the default 9464.
      METRICS_PORT: "0",
      ...env,
    },
  });
  let text = "";
  let errors = "";
  child.stdout?.on("data", (chunk) => {
    text += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    text += chunk;
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const listening = async () => {
    await waitFor(() => text.includes('"msg":"listening"') || child.exitCode !== null, "the listener");
    const line = text.split("\n").find((l) => l.includes('"msg":"listening"'));
    if (!line) throw new Error(`the service exited: ${text}`);
    return (JSON.parse(line) as { url: string }).url;
  };
  return { child, output: () => text, errors: () => errors, exited, listening };
}

export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
