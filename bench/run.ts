import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { TargetName } from "./targets.js";

// `npm run bench`: loads funding:get over REST and over Connect, and two baselines measured in
// the same run (a bare node:http server answering a fixed body, and a trivial connect-node
// handler), then prints every figure and its ratio to the baselines.

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const WARMUP_S = 2;

interface Scenario {
  label: string;
  target: TargetName;
  env?: Record<string, string>;
  path: string;
  headers: Record<string, string>;
  body: (campaignKey: string) => string;
}

const connectHeaders = { "content-type": "application/json", "connect-protocol-version": "1" };
const scenarios: Scenario[] = [
  {
    label: "bare node:http (fixed JSON)",
    target: "bare-node-http",
    path: "/",
    headers: { "content-type": "application/json" },
    body: () => "{}",
  },
  {
    label: "trivial connect-node handler",
    target: "trivial-connect",
    path: "/encore.campaign.v1.CampaignService/GetPublicFunding",
    headers: connectHeaders,
    body: () => JSON.stringify({ campaignKey: "fixed" }),
  },
  {
    label: "funding:get over REST",
    target: "service",
    path: "/v1/public/funding:get",
    headers: { "content-type": "application/json" },
    body: (key) => JSON.stringify({ campaignKey: key }),
  },
  {
    label: "funding:get over REST, read cache off (a query per call)",
    target: "service",
    env: { PUBLIC_READ_CACHE_MS: "0" },
    path: "/v1/public/funding:get",
    headers: { "content-type": "application/json" },
    body: (key) => JSON.stringify({ campaignKey: key }),
  },
  {
    label: "GetPublicFunding over Connect",
    target: "service",
    path: "/encore.campaign.v1.CampaignService/GetPublicFunding",
    headers: connectHeaders,
    body: (key) => JSON.stringify({ campaignKey: key }),
  },
];

interface Result {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number;
}

async function measure(scenario: Scenario): Promise<Result> {
  const child = fork(fileURLToPath(new URL("./target-process.ts", import.meta.url)), [scenario.target], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...scenario.env },
  });
  try {
    const ready = await nextMessage<{ port: number; campaignKey: string }>(child, "ready");
    const options = {
      url: `http://127.0.0.1:${ready.port}${scenario.path}`,
      method: "POST" as const,
      headers: scenario.headers,
      body: scenario.body(ready.campaignKey),
      connections: CONNECTIONS,
    };
    await autocannon({ ...options, duration: WARMUP_S });
    const result = await autocannon({ ...options, duration: DURATION_S });
    child.send({ type: "stats" });
    const stats = await nextMessage<{ peakRssBytes: number }>(child, "stats");
    return {
      label: scenario.label,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      peakRssMb: stats.peakRssBytes / 1024 / 1024,
    };
  } finally {
    await stopChild(child);
  }
}

/** Lets the target drop its database, then makes sure it is gone. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send({ type: "stop" });
  const deadline = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(deadline);
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== type) return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
    child.once("exit", (code) => reject(new Error(`benchmark target exited (${code})`)));
  });
}

const results: Result[] = [];
for (const scenario of scenarios) results.push(await measure(scenario));
const [bare, trivial] = results as [Result, Result, ...Result[]];

const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}x`;
console.log(
  `\nfunding:get benchmark: ${CONNECTIONS} connections, ${DURATION_S}s each, database ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite (in process)"}\n`,
);
console.log(
  ["target", "req/s", "p50 ms", "p99 ms", "peak RSS MB", "errors", "vs bare", "vs trivial connect"].join(" | "),
);
for (const r of results) {
  console.log(
    [
      r.label,
      r.rps.toFixed(0),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      r.peakRssMb.toFixed(0),
      r.errors,
      ratio(r.rps, bare.rps),
      ratio(r.rps, trivial.rps),
    ].join(" | "),
  );
}
