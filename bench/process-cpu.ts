import { readdirSync, readFileSync } from "node:fs";

// The CPU time (user + system) of processes on this machine, from /proc: the purchase load's
// other parties (PostgreSQL, the simulator, the load generator) share the 2 cores with the
// service, so what each costs a purchase bounds the purchases a second the machine can reach.

// USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux this runs on.
const TICK_MS = 10;
// The unit of /proc/<pid>/statm: 4 KiB pages on x86-64 and arm64 Linux.
const PAGE_BYTES = 4096;

/** The CPU time of one process so far, in ms; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  const { userMs, systemMs } = processTimes(pid);
  return userMs + systemMs;
}

/** One process's CPU time so far in user space and in the kernel, in ms; 0 once it is gone. */
export function processTimes(pid: number): { userMs: number; systemMs: number } {
  const fields = statFields(pid);
  if (!fields) return { userMs: 0, systemMs: 0 };
  // utime and stime are the 14th and 15th fields.
  return { userMs: Number(fields[11]) * TICK_MS, systemMs: Number(fields[12]) * TICK_MS };
}

/** The processes `pid` started that are still running. */
export function childPidsOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    // The parent's pid is the 4th field.
    if (Number(statFields(Number(entry))?.[1]) === pid) children.push(Number(entry));
  }
  return children;
}

/** Whether `pid` is running: it exists and is not a zombie waiting to be reaped. */
export function running(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== "Z";
}

/** Every process under `pid` at any depth, each before its own children. */
export function descendantsOf(pid: number): number[] {
  return childPidsOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** One process's resident set size in bytes; 0 once it is gone. */
export function processRssBytes(pid: number): number {
  try {
    const resident = readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1];
    return Number(resident) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

// The fields of /proc/<pid>/stat after the command name (which may hold spaces): from the 3rd.
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The CPU time so far of every PostgreSQL server process on this machine, in ms by pid. */
export function postgresCpuMs(): Map<number, number> {
  const times = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue;
    }
    // The postmaster runs as .../bin/postgres, its children rename themselves "postgres: ...".
    if (/^(\S*\/)?postgres(:|\0)/.test(command)) times.set(Number(entry), processCpuMs(Number(entry)));
  }
  return times;
}

/** The PostgreSQL CPU spent between two readings (processes that ended in between count 0). */
export function postgresCpuSince(before: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ms] of postgresCpuMs()) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** Whether a PostgreSQL URL's server is this machine (so its processes can be read). */
export function isLocalServer(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "" || host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}
