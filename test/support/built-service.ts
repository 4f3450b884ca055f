import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ROOT, SERVICE_ENTRY } from "./built-entries.js";

/**
 * The integration project's second globalSetup. Tests that run the service, the admin CLI, the
 * simulator or the dev server as processes run the compiled build, as `npm start` does: one
 * build for the run (scripts/ensure-built.mjs builds only when dist/ is stale) instead of a
 * TypeScript loader compiling the sources again in every process, about a second each.
 *
 * It also starts the built service once on an empty DATA_DIR and stops it: that folder, a
 * DATA_DIR after a first start (the embedded database made and migrated, the local secrets
 * written), is what `migratedDataDir()` copies for tests that do not test the first start
 * itself, instead of each making and migrating an embedded database of its own (two seconds
 * of CPU each).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const built = spawnSync(process.execPath, ["scripts/ensure-built.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error(`scripts/ensure-built.mjs failed (exit ${built.status})`);
  const dataDir = mkdtempSync(join(tmpdir(), "encore-data-template-"));
  await firstStart(dataDir);
  project.provide("migratedDataDir", dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}

async function firstStart(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, PORT: "0", METRICS_PORT: "off" },
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const listening = new Promise<void>((resolve) => {
    child.stdout.on("data", () => {
      if (output.includes('"msg":"listening"')) resolve();
    });
  });
  const first = await Promise.race([listening.then(() => "listening" as const), exited]);
  if (first !== "listening") throw new Error(`the built service did not start (exit ${first}):\n${output}`);
  child.kill("SIGTERM");
  const code = await exited;
  if (code !== 0) throw new Error(`the built service did not stop cleanly (exit ${code}):\n${output}`);
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A DATA_DIR the built service started on once and left (test/support/built-service.ts). */
    migratedDataDir: string;
  }
}
