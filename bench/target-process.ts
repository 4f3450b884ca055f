import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { stopWhen, tellBench } from "./bench-child.js";
import { type PerfRecording, startPerfRecording } from "./perf-record.js";
import { processRssBytes, processTimes } from "./process-cpu.js";
import { type StartedTarget, startTarget, type TargetName } from "./targets.js";

// Child process: starts one target, tells the parent its port, and measures the target on
// request: "mark" starts a measured interval (CPU time, RSS samples, SQL statements sent),
// "stats" ends it and reports, "rss" answers the RSS of the moment. With BENCH_CPU_PROF=<dir>,
// the measured interval's V8 CPU profile is written there (as node --cpu-prof would, but without
// the start and the seeding); with BENCH_PERF=<dir>, Linux perf's on-CPU profile of the interval,
// of every process the target is (perf-record.ts).
const name = process.argv[2] as TargetName;
const starting = startTarget(name);
// Stopped by the bench ("stop"), or on its own when the bench is gone (its channel closes, even
// after a SIGKILL) or when a signal reaches it too (Ctrl-C reaches the whole process group):
// the target's service ended and its database dropped either way, once.
const child = stopWhen(async () => {
  const target = await starting.catch(() => undefined);
  await target?.stop?.();
});
const started = await starting.catch(async (error: unknown) => {
  // Stopped while starting (a Ctrl-C ends the service too): the stop exits, without this error.
  if (child.stopping) await new Promise(() => {});
  throw error;
});
tellBench({ type: "ready", port: started.port, campaignKey: started.campaignKey, shops: started.shops });

// The target's CPU time (user, system, in µs) and RSS: this process's own, or the process the
// target runs (the service as npm start runs it), read from /proc.
const cpuUsage = (): NodeJS.CpuUsage => {
  if (!started.pids) return process.cpuUsage();
  let user = 0;
  let system = 0;
  for (const pid of started.pids()) {
    const times = processTimes(pid);
    user += times.userMs * 1000;
    system += times.systemMs * 1000;
  }
  return { user, system };
};
const rss = () =>
  started.pids ? started.pids().reduce((sum, pid) => sum + processRssBytes(pid), 0) : process.memoryUsage.rss();
const cpuSince = (before: NodeJS.CpuUsage): NodeJS.CpuUsage => {
  const now = cpuUsage();
  return { user: now.user - before.user, system: now.system - before.system };
};

let markedCpu = cpuUsage();
let markedQueries = (await started.queryCount?.()) ?? 0;
let rssSamples: number[] = [];
const sampler = setInterval(() => rssSamples.push(rss()), 250);
sampler.unref();

const profileDir = process.env.BENCH_CPU_PROF;
// The measured interval's V8 profile. A service in a process of its own profiles itself, through
// its probe (started.profile); only a target in this process is profiled here.
const intervalProfile = profileDir ? (started.pids ? started.profile : profileOfThisProcess()) : undefined;
let profiling = false;
let perf: PerfRecording | undefined;

function profileOfThisProcess(): StartedTarget["profile"] {
  const session = new Session();
  session.connect();
  return {
    async start() {
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    },
    async stop(file) {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}

process.on("message", async (message: { type: string }) => {
  if (message.type === "mark") {
    if (intervalProfile && !profiling) {
      await intervalProfile.start();
      profiling = true;
    }
    perf ??= startPerfRecording(name, started.pids?.() ?? [process.pid]);
    markedCpu = cpuUsage();
    markedQueries = (await started.queryCount?.()) ?? 0;
    rssSamples = [rss()];
    tellBench({ type: "marked" });
  }
  if (message.type === "stats") {
    if (profileDir && intervalProfile && profiling) {
      profiling = false;
      const pid = started.pids?.()[0] ?? process.pid;
      await intervalProfile.stop(join(profileDir, `${name}-${pid}-${Date.now()}.cpuprofile`));
    }
    await perf?.stop();
    perf = undefined;
    const cpu = cpuSince(markedCpu);
    rssSamples.push(rss());
    tellBench({
      type: "stats",
      cpuMs: (cpu.user + cpu.system) / 1000,
      userCpuMs: cpu.user / 1000,
      peakRssBytes: Math.max(...rssSamples),
      queries: ((await started.queryCount?.()) ?? 0) - markedQueries,
    });
  }
  // The RSS of the moment, without ending a measured interval (the soak's curve: a profile or a
  // perf recording of the soak goes on to its end).
  if (message.type === "rss") tellBench({ type: "rss", rssBytes: rss() });
});
