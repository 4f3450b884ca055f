import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface SimulatorProcess {
  url: string;
  storeUrl: string;
  openIdUrl: string;
  stop(): void;
}

// Beside this module: main.ts under a TypeScript loader, main.js in the build (dist/).
const SIM_MAIN = fileURLToPath(new URL(`../sim/steam/main${import.meta.url.slice(-3)}`, import.meta.url));

/**
 * The Steam simulator as its own process (`npm run steam-sim` on a free port), so the demo talks
 * to it over HTTP exactly as the service does; resolves once it printed its URLs.
 */
export function startSimulatorProcess(): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, SIM_MAIN, "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let url: string | undefined;
    let openIdUrl: string | undefined;
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      if (line.startsWith("STEAM_API_URL=")) url = line.slice("STEAM_API_URL=".length);
      if (line.startsWith("STEAM_OPENID_URL=")) openIdUrl = line.slice("STEAM_OPENID_URL=".length);
      if (line.startsWith("STEAM_STORE_URL=") && url && openIdUrl) {
        const storeUrl = line.slice("STEAM_STORE_URL=".length);
        resolve({ url, storeUrl, openIdUrl, stop: () => void child.kill("SIGTERM") });
      }
    });
    child.once("exit", (code) => reject(new Error(`steam simulator exited early (code ${code})`)));
    child.once("error", reject);
  });
}

/** POSTs JSON to the simulator's control API (docs/steam-simulator.md). */
export async function simControl(simUrl: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${simUrl}/_sim${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`steam simulator ${path}: ${res.status} ${await res.text()}`);
}
