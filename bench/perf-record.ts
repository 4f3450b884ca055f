import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";

// BENCH_PERF=<dir>: Linux perf's on-CPU profile of a target's measured interval. V8's own
// profiler (BENCH_CPU_PROF) samples the JavaScript thread on a wall-clock tick, so a thread
// waiting for a core inside a system call keeps collecting samples there: on this 2-core machine
// 39 % of a purchase profile's samples were `writev`, where perf, which samples only a thread
// that is running, puts the whole kernel at about 10 % of the service's CPU. perf also sees V8's
// compiler and collector threads (docs/performance.md, Warm before measuring).

/** The directory perf profiles go to, or undefined when BENCH_PERF is unset. */
export const perfDir = process.env.BENCH_PERF || undefined;

/**
 * The node options a profiled process needs: V8 writes /tmp/perf-<pid>.map, the names of its
 * compiled JavaScript functions, which `perf report` reads to name their addresses.
 */
export function perfNodeOptions(): string[] {
  return perfDir ? ["--perf-basic-prof"] : [];
}

const NO_PERF = "BENCH_PERF needs Linux perf on the PATH (Debian: apt-get install linux-perf)";

/** Throws before anything is measured when BENCH_PERF is set and perf cannot be run. */
export function checkPerfAvailable(): void {
  if (perfDir && spawnSync("perf", ["--version"], { stdio: "ignore" }).error) throw new Error(NO_PERF);
}

export interface PerfRecording {
  /** Ends the recording; resolves once perf has written its file. */
  stop(): Promise<void>;
}

/** Starts `perf record` on the processes (each with all of its threads), or nothing without BENCH_PERF. */
export function startPerfRecording(label: string, pids: number[]): PerfRecording | undefined {
  if (!perfDir) return undefined;
  const output = join(perfDir, `${label}-${pids[0]}-${Date.now()}.perf.data`);
  const perf: ChildProcess = spawn("perf", ["record", "-g", "-F", "999", "-p", pids.join(","), "-o", output], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  // Should perf go missing after checkPerfAvailable, say so rather than "spawn perf ENOENT".
  const exited = new Promise<void>((resolve, reject) => {
    perf.once("exit", () => resolve());
    perf.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new Error(NO_PERF) : error));
  });
  return {
    async stop() {
      // perf writes its file on SIGINT, as on Ctrl-C.
      perf.kill("SIGINT");
      await exited;
    },
  };
}
