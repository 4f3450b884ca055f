import type { ChildProcess } from "node:child_process";
import { descendantsOf } from "./process-cpu.js";

/**
 * Asks a bench child (target-process.ts, sim-process.ts) to stop, which drops its database, and
 * waits until it has exited. One that has not within `withinMs` is killed, and so is every
 * process it started: a target's service would otherwise run on with nobody left to stop it.
 */
export async function endChild(child: ChildProcess, withinMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A child whose channel is closed, or closes under this send (a Ctrl-C reached it too), is
  // stopping already (bench-child.ts): the send's failure is not an error.
  if (child.connected) child.send({ type: "stop" }, () => {});
  const deadline = setTimeout(() => {
    for (const pid of descendantsOf(child.pid ?? 0)) killQuietly(pid);
    child.kill("SIGKILL");
  }, withinMs);
  await exited;
  clearTimeout(deadline);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone meanwhile.
  }
}
