import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

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

export const freshDataDir = () => mkdtempSync(join(tmpdir(), "encore-main-"));

/** The service as an operator runs it: its own process, configured only by the environment. */
export function startService(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: root,
    // METRICS_PORT 0: parallel test files must not contend for the default 9464.
    env: { PATH: process.env.PATH ?? "", DATA_DIR: freshDataDir(), PORT: "0", METRICS_PORT: "0", ...env },
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
