import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A memory cgroup with a limit, as a container's (the bench's `BENCH_MEMORY_LIMIT_MB`,
 * test/server/young-generation.test.ts): node reads the limit
 * when it starts and V8 sizes its heap by it, young generation included, as in the Kubernetes
 * pod (docs/performance.md, "Memory"). Needs write access to the
 * cgroup tree (root); cgroup v1's memory controller or v2's with the memory controller delegated.
 */
export interface MemoryCgroup {
  readonly limitMb: number;
  /** How to start a process inside it: fork's execPath and the options before node's own. */
  spawnInside(nodeOptions: string[]): { execPath: string; execArgv: string[] };
  /** Removes the cgroup once every process in it has exited. */
  remove(): void;
}

export function createMemoryCgroup(limitMb: number): MemoryCgroup {
  const own = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  const v1 = own.find((line) => /^\d+:memory:/.test(line))?.split(":")[2];
  const v2 = own.find((line) => line.startsWith("0::"))?.slice(3);
  const base = v1 !== undefined ? join("/sys/fs/cgroup/memory", v1) : join("/sys/fs/cgroup", v2 ?? "");
  const limitFile = v1 !== undefined ? "memory.limit_in_bytes" : "memory.max";
  if (!existsSync(join(base, v1 !== undefined ? "cgroup.procs" : "cgroup.controllers"))) {
    throw new Error(`memory cgroup: no memory cgroup to make one under (${base})`);
  }
  const dir = join(base, `encore-memory-limit-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, limitFile), String(limitMb * 2 ** 20));
  } catch (error) {
    rmdirSync(dir);
    throw new Error(`memory cgroup: cannot set ${join(dir, limitFile)}: ${(error as Error).message}`);
  }
  return {
    limitMb,
    // The shell joins the cgroup, then becomes node: the process starts inside, under the limit.
    spawnInside: (nodeOptions) => ({
      execPath: "/bin/sh",
      execArgv: ["-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, process.execPath, ...nodeOptions],
    }),
    remove: () => {
      try {
        rmdirSync(dir);
      } catch (error) {
        console.error(`memory cgroup: ${dir} left behind: ${(error as Error).message}`);
      }
    },
  };
}
