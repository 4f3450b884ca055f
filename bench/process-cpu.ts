import { readdirSync, readFileSync } from "node:fs";

// The CPU time (user + system) of processes on this machine, from /proc: the purchase load's
// other parties (PostgreSQL, the simulator, the load generator) share the 2 cores with the
// service, so what each costs a purchase bounds the purchases a second the machine can reach.

// USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux this runs on.
const TICK_MS = 10;

/** The CPU time of one process so far, in ms; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces), from the 3rd: utime is the 14th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
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
