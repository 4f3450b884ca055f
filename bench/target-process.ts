import { startTarget, type TargetName } from "./targets.js";

// Child process: starts one target, tells the parent its port, reports peak RSS on request.
const name = process.argv[2] as TargetName;
const started = await startTarget(name);
process.send?.({ type: "ready", port: started.port, campaignKey: started.campaignKey });
process.on("message", (message: { type: string }) => {
  if (message.type === "stats") {
    // maxRSS is in kilobytes.
    process.send?.({ type: "stats", peakRssBytes: process.resourceUsage().maxRSS * 1024 });
  }
  if (message.type === "stop") {
    void (started.stop?.() ?? Promise.resolve()).finally(() => process.exit(0));
  }
});
