import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { watchStatements } from "../test/support/sent-statements.js";

// Loaded with `--import` into the service as the bench runs it in a process of its own (the
// service as `npm start` runs it, targets.ts), it answers the bench's target process over the IPC
// channel: how many statements the service has sent to the database, and the V8 CPU profile of a
// measured interval alone (BENCH_CPU_PROF), as the target process measures a service running in
// its own process. pg stays outside the service's bundle (scripts/build.mjs), so the pg this
// module patches is the one the service sends with.

/** A question from the bench's target process. */
export type ProbeRequest =
  | { type: "probe:statements" }
  | { type: "probe:profile-start" }
  | { type: "probe:profile-stop"; file: string };

/** The answer to every request: the statements sent so far. */
export interface ProbeAnswer {
  type: "probe:answer";
  statements: number;
}

let statements = 0;
watchStatements(() => {
  statements += 1;
});

let profiler: Session | undefined;

async function handle(request: ProbeRequest): Promise<void> {
  if (request.type === "probe:profile-start" && !profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
  if (request.type === "probe:profile-stop" && profiler) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(request.file, JSON.stringify(profile));
    profiler.disconnect();
    profiler = undefined;
  }
  const answer: ProbeAnswer = { type: "probe:answer", statements };
  process.send?.(answer);
}

process.on("message", (message: ProbeRequest) => {
  if (typeof message?.type === "string" && message.type.startsWith("probe:")) void handle(message);
});
// The channel alone must not keep the service running once it is told to stop.
process.channel?.unref();
