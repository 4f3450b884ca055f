import { type ChildProcess, fork } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createMemoryCgroup } from "../test/support/memory-cgroup.js";
import { serviceNodeOptions } from "../test/support/service-node-options.js";
import { createTestDatabase } from "../test/support/test-database.js";
import { withoutBuildCheck } from "./child-exec-argv.js";
import { endChild } from "./end-child.js";
import { exitOnInterrupt, interruption, runUnlessInterrupted, undoneOnInterrupt } from "./interrupts.js";
import { checkPerfAvailable, perfNodeOptions } from "./perf-record.js";
import { type Pgbench, runPgbench } from "./pgbench.js";
import { isLocalServer, postgresCpuMs, postgresCpuSince, processCpuMs } from "./process-cpu.js";
import { mintPlayers, percentile, runPurchaseLoad } from "./purchase-load.js";
import { benchSettings } from "./settings.js";
import { measureStartToReady, type StartTime, type StartTimes } from "./start-to-ready.js";
import type { BenchShop, TargetName } from "./targets.js";

// `npm run bench [-- all|purchase|read|start|soak]` (default all). With BENCH_DATABASE_URL (a
// PostgreSQL server; each target makes and drops a database of its own on it):
// - purchase: complete purchases by BENCH_PLAYERS players against the loopback Steam simulator,
//   on one hot campaign and on BENCH_CAMPAIGNS campaigns, and pgbench -N / -S on the same server;
// - read: funding:get over REST and over Connect, cache on and off, with two baselines (a bare
//   node:http server answering a fixed body, a trivial connect-node handler);
// then one table with every figure and its ratio to the baseline measured in the same run.
// Without BENCH_DATABASE_URL the reads run on in-process PGlite and the purchase load is skipped.
// - start: start to ready; soak: RSS over BENCH_SOAK_REQUESTS funding:get calls and a long
//   purchase load (BENCH_SOAK_S seconds).
// BENCH_ROUNDS (1) repeats purchase and read targets with their baselines, in turns; the table
// gives medians, each ratio taken within its own round.

const settings = (() => {
  try {
    return benchSettings();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
})();
const CONNECTIONS = settings.BENCH_CONNECTIONS;
const DURATION_S = settings.BENCH_DURATION_S;
const PLAYERS = settings.BENCH_PLAYERS;
const CAMPAIGNS = settings.BENCH_CAMPAIGNS;
// Reads are warm after 2 s (tens of thousands of calls); a purchase runs far more code a
// call, and V8 still compiles it for its first few thousand purchases, on threads of its own
// (docs/performance.md, Warm before measuring). So each purchase target first makes this many
// purchases, counted in purchases rather than seconds because V8 tiers up by calls.
const WARMUP_S = 2;
const PURCHASE_WARMUP = settings.BENCH_PURCHASE_WARMUP;
// Each target measured this many times, in turns with its baselines; the table gives the median
// of each figure and of each ratio (taken within its round): the machine's speed drifts.
const ROUNDS = settings.BENCH_ROUNDS;
const WARM_STARTS = 5;
const serverUrl = process.env.BENCH_DATABASE_URL;
// Every target process (the baselines' too) under this
// memory limit, as in a container: V8 sizes its heap by it (test/support/memory-cgroup.ts).
const memoryCgroup =
  settings.BENCH_MEMORY_LIMIT_MB !== undefined ? createMemoryCgroup(settings.BENCH_MEMORY_LIMIT_MB) : undefined;
// After an interrupt too: by then every child has stopped, and the cgroup is empty.
process.on("exit", () => memoryCgroup?.remove());
exitOnInterrupt();
const mode = process.argv[2] ?? "all";
checkPerfAvailable();

interface Scenario {
  label: string;
  target: TargetName;
  env?: Record<string, string>;
  path: string;
  headers: Record<string, string>;
  body: (campaignKey: string) => string;
}

const CACHE_OFF = "funding:get over REST, read cache off (a query per call)";
const connectHeaders = { "content-type": "application/json", "connect-protocol-version": "1" };
const restFunding = {
  path: "/v1/public/funding:get",
  headers: { "content-type": "application/json" },
  body: (key: string) => JSON.stringify({ campaignKey: key }),
};
const readScenarios: Scenario[] = [
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
  { label: "funding:get over REST", target: "service", ...restFunding },
  {
    label: CACHE_OFF,
    target: "service",
    env: { PUBLIC_READ_CACHE_MS: "0" },
    ...restFunding,
  },
  {
    label: "GetPublicFunding over Connect",
    target: "service",
    path: "/encore.campaign.v1.CampaignService/GetPublicFunding",
    headers: connectHeaders,
    body: (key) => JSON.stringify({ campaignKey: key }),
  },
];
if (serverUrl) {
  // The same load on the embedded database: its RSS less the PostgreSQL row's is PGlite's share.
  readScenarios.push({
    label: "funding:get over REST, embedded PGlite",
    target: "service",
    env: { BENCH_DATABASE_URL: "" },
    ...restFunding,
  });
}

interface Row {
  label: string;
  /** Requests, purchases or transactions per second. */
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb?: number;
  /** Service CPU per request or purchase. */
  cpuMsPerOp?: number;
  /** The share of that CPU time spent in user space (the rest: the kernel, on the service's behalf). */
  userShare?: number;
  queriesPerOp?: number;
  /**
   * To the baselines of its own round: bare node:http, the trivial handler, pgbench -N, pgbench -S;
   * and a purchase's service CPU to the simulator's in the same measurement (`simulator`).
   */
  ratios?: { bare?: number; trivial?: number; pgbenchN?: number; pgbenchS?: number; simulator?: number };
  /** What the ratio column says of a pgbench row. */
  note?: string;
  /** The service itself on PostgreSQL (not a baseline, not the embedded database). */
  serviceOnPostgres?: boolean;
  /** The purchase load's other parties' CPU per purchase (PostgreSQL only when it is local). */
  othersCpuMsPerOp?: { postgres?: number; simulator?: number; loadGenerator: number };
}

interface TargetStats {
  cpuMs: number;
  userCpuMs: number;
  peakRssBytes: number;
  queries: number;
}

interface Ready {
  port: number;
  campaignKey: string;
  shops: BenchShop[];
}

// How each child is stopped, once: by the code that started it or by an interrupt.
const stoppers = new WeakMap<ChildProcess, () => Promise<void>>();

function startChild(script: string, args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  interruption.throwIfAborted();
  const child = forkChild(script, args, env);
  const stop = undoneOnInterrupt(() => endChild(child));
  stoppers.set(child, stop);
  return child;
}

function forkChild(script: string, args: string[], env: Record<string, string | undefined>): ChildProcess {
  const file = fileURLToPath(new URL(`./${script}${import.meta.url.slice(-3)}`, import.meta.url));
  const options = { env: { ...process.env, ...env }, execArgv: withoutBuildCheck(process.execArgv) };
  if (script !== "target-process") return fork(file, args, options);
  // A target runs the service in its own process: with the service's node options (its heap),
  // and with BENCH_MEMORY_LIMIT_MB under a container's memory limit.
  const nodeOptions = [...options.execArgv, ...serviceNodeOptions(), ...perfNodeOptions()];
  if (memoryCgroup) return fork(file, args, { ...options, ...memoryCgroup.spawnInside(nodeOptions) });
  return fork(file, args, { ...options, execArgv: nodeOptions });
}

async function measureRead(scenario: Scenario): Promise<Row> {
  const onPostgres = scenario.target === "service" && Boolean(serverUrl) && scenario.env?.BENCH_DATABASE_URL !== "";
  const child = startChild("target-process", [scenario.target], scenario.env);
  try {
    const ready = await nextMessage<Ready>(child, "ready");
    const options = {
      url: `http://127.0.0.1:${ready.port}${scenario.path}`,
      method: "POST" as const,
      headers: scenario.headers,
      body: scenario.body(ready.campaignKey),
      connections: CONNECTIONS,
    };
    await autocannon({ ...options, duration: WARMUP_S });
    await ask(child, "mark", "marked");
    const postgresBefore = serverUrl && isLocalServer(serverUrl) ? postgresCpuMs() : undefined;
    const loadBefore = process.cpuUsage();
    const result = await autocannon({ ...options, duration: DURATION_S });
    const loadCpu = process.cpuUsage(loadBefore);
    const stats = await ask<TargetStats>(child, "stats", "stats");
    const served = result.requests.total;
    return {
      othersCpuMsPerOp: {
        postgres: postgresBefore && postgresCpuSince(postgresBefore) / served,
        loadGenerator: (loadCpu.user + loadCpu.system) / 1000 / served,
      },
      label: scenario.label,
      serviceOnPostgres: onPostgres,
      rate: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      peakRssMb: stats.peakRssBytes / 2 ** 20,
      cpuMsPerOp: stats.cpuMs / served,
      userShare: stats.userCpuMs / stats.cpuMs,
      queriesPerOp: onPostgres ? stats.queries / served : undefined,
    };
  } finally {
    await stopChild(child);
  }
}

async function measurePurchases(
  label: string,
  campaigns: number,
  seconds: number,
  onRss?: (mb: number) => void,
): Promise<Row> {
  const sim = startChild("sim-process", []);
  const simReady = await nextMessage<{ url: string }>(sim, "ready");
  const child = startChild("target-process", ["purchase-service"], {
    BENCH_STEAM_URL: simReady.url,
    BENCH_CAMPAIGNS: String(campaigns),
  });
  try {
    const ready = await nextMessage<Ready>(child, "ready");
    const players = await mintPlayers(simReady.url, ready.shops, PLAYERS);
    await runPurchaseLoad(ready.port, players, { purchases: PURCHASE_WARMUP });
    await ask(child, "mark", "marked");
    const postgresBefore = serverUrl && isLocalServer(serverUrl) ? postgresCpuMs() : undefined;
    const simulatorBefore = processCpuMs(sim.pid ?? 0);
    const loadBefore = process.cpuUsage();
    const sampler = onRss
      ? setInterval(
          () => void ask<{ rssBytes: number }>(child, "rss", "rss").then((s) => onRss(s.rssBytes / 2 ** 20)),
          10_000,
        )
      : undefined;
    const load = await runPurchaseLoad(ready.port, players, { seconds });
    clearInterval(sampler);
    const loadCpu = process.cpuUsage(loadBefore);
    const othersCpuMsPerOp = {
      postgres: postgresBefore && postgresCpuSince(postgresBefore) / load.purchases,
      simulator: (processCpuMs(sim.pid ?? 0) - simulatorBefore) / load.purchases,
      loadGenerator: (loadCpu.user + loadCpu.system) / 1000 / load.purchases,
    };
    const stats = await ask<TargetStats>(child, "stats", "stats");
    if (load.firstError) console.error(`${label}: ${load.errors} failed, the first: ${load.firstError}`);
    return {
      othersCpuMsPerOp,
      label,
      serviceOnPostgres: true,
      rate: load.purchases / load.seconds,
      p50: percentile(load.latenciesMs, 50),
      p99: percentile(load.latenciesMs, 99),
      errors: load.errors,
      peakRssMb: stats.peakRssBytes / 2 ** 20,
      cpuMsPerOp: stats.cpuMs / load.purchases,
      userShare: stats.userCpuMs / stats.cpuMs,
      queriesPerOp: stats.queries / load.purchases,
    };
  } finally {
    await stopChild(child);
    await stopChild(sim);
  }
}

/** Lets the child drop its database, then makes sure it is gone. */
function stopChild(child: ChildProcess): Promise<void> {
  return stoppers.get(child)?.() ?? endChild(child);
}

function ask<T>(child: ChildProcess, type: string, answer: string): Promise<T> {
  const next = nextMessage<T>(child, answer);
  child.send({ type });
  return next;
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`benchmark child exited (${code})`));
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== type) return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(message);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined || Number.isNaN(value) ? "" : value.toFixed(digits);

interface Target {
  what: string;
  measured: string;
  /** Undefined when this run could not measure it. */
  met: boolean | undefined;
}

/** One round: pgbench, the purchase loads and the reads, each row's ratios to this round's baselines. */
async function measureRound(): Promise<Row[]> {
  const rows: Row[] = [];
  const wantPurchases = mode === "all" || mode === "purchase";
  const wantReads = mode === "all" || mode === "read";
  let pgbench: Pgbench | undefined;
  if (serverUrl && wantPurchases) {
    pgbench = await runPgbench(serverUrl, DURATION_S);
    if (!pgbench.available) console.log(`\npgbench baselines skipped: ${pgbench.why}\n`);
  }
  const simpleUpdate = pgbench?.available ? pgbench.simpleUpdate.tps : undefined;
  const selectOnly = pgbench?.available ? pgbench.selectOnly.tps : undefined;
  if (pgbench?.available) {
    for (const [label, r] of [
      [PGBENCH_N, pgbench.simpleUpdate],
      [PGBENCH_S, pgbench.selectOnly],
    ] as const) {
      rows.push({ label, rate: r.tps, p50: Number.NaN, p99: Number.NaN, errors: 0, note: `avg ${r.latencyMs} ms` });
    }
  }
  if (wantPurchases && serverUrl) {
    for (const [label, campaigns] of PURCHASE_LOADS) {
      const row = await measurePurchases(label, campaigns, DURATION_S);
      // The simulator's code is the same in every build: its CPU a purchase moves with the
      // machine's speed of the moment, so the service's over it compares builds across rounds.
      const simulator = row.othersCpuMsPerOp?.simulator;
      row.ratios = {
        pgbenchN: simpleUpdate && row.rate / simpleUpdate,
        simulator: simulator && row.cpuMsPerOp !== undefined ? row.cpuMsPerOp / simulator : undefined,
      };
      rows.push(row);
    }
  }
  if (wantReads) {
    const reads: Row[] = [];
    for (const scenario of readScenarios) reads.push(await measureRead(scenario));
    const [bare, trivial] = reads as [Row, Row, ...Row[]];
    for (const row of reads) {
      row.ratios = {
        bare: row.rate / bare.rate,
        trivial: row.rate / trivial.rate,
        pgbenchS: row.label === CACHE_OFF && selectOnly ? row.rate / selectOnly : undefined,
      };
    }
    rows.push(...reads);
  }
  return rows;
}

const PGBENCH_N = "pgbench -N (simple update), 16 clients";
const PGBENCH_S = "pgbench -S (select only), 16 clients";
const PURCHASE_LOADS: [label: string, campaigns: number][] = [
  [`complete purchases, ${PLAYERS} players, 1 hot campaign`, 1],
  [`complete purchases, ${PLAYERS} players, ${CAMPAIGNS} campaigns`, CAMPAIGNS],
];
const REST = "funding:get over REST";

/** The median (of an even count, the mean of the two middle values); NaN when there is none. */
const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
  const half = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[half] as number)
    : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
};
const medianOf = (values: (number | undefined)[]) =>
  values.every((v) => v === undefined) ? undefined : median(values.filter((v) => v !== undefined));

/** Each row's figures and ratios as the median over the rounds (one round: as measured). */
function combine(rounds: Row[][]): Row[] {
  const first = rounds[0] ?? [];
  return first.map((row) => {
    const all = rounds.map((round) => round.find((r) => r.label === row.label)).filter((r) => r !== undefined);
    const of = (pick: (r: Row) => number | undefined) => medianOf(all.map(pick));
    return {
      ...row,
      rate: of((r) => r.rate) ?? Number.NaN,
      p50: of((r) => r.p50) ?? Number.NaN,
      p99: of((r) => r.p99) ?? Number.NaN,
      errors: all.reduce((sum, r) => sum + r.errors, 0),
      peakRssMb: of((r) => r.peakRssMb),
      cpuMsPerOp: of((r) => r.cpuMsPerOp),
      userShare: of((r) => r.userShare),
      queriesPerOp: of((r) => r.queriesPerOp),
      ratios: {
        bare: of((r) => r.ratios?.bare),
        trivial: of((r) => r.ratios?.trivial),
        pgbenchN: of((r) => r.ratios?.pgbenchN),
        pgbenchS: of((r) => r.ratios?.pgbenchS),
        simulator: of((r) => r.ratios?.simulator),
      },
      othersCpuMsPerOp: row.othersCpuMsPerOp && {
        postgres: of((r) => r.othersCpuMsPerOp?.postgres),
        simulator: of((r) => r.othersCpuMsPerOp?.simulator),
        loadGenerator: of((r) => r.othersCpuMsPerOp?.loadGenerator) ?? 0,
      },
    };
  });
}

function ratioText(row: Row): string {
  if (row.note !== undefined) return row.note;
  const { bare, trivial, pgbenchN, pgbenchS, simulator } = row.ratios ?? {};
  const parts: string[] = [];
  if (bare !== undefined) parts.push(`${bare.toFixed(2)}x bare`, `${(trivial ?? Number.NaN).toFixed(2)}x trivial`);
  if (pgbenchN !== undefined) parts.push(`${(100 * pgbenchN).toFixed(1)}% of pgbench`);
  if (pgbenchS !== undefined) parts.push(`${(100 * pgbenchS).toFixed(1)}% of pgbench -S`);
  if (simulator !== undefined) parts.push(`CPU ${simulator.toFixed(2)}x the simulator's`);
  return parts.join(", ");
}

// The targets (docs/performance.md, "Targets"), each judged from this run's own figures. The rate
// target (at least 90 % of another checkout's rate) needs two checkouts: scripts/bench-turns.mjs.
const TAIL_OVER_MEDIAN = 1.5;
const REST_OVER_BARE = 0.3;
const PEAK_RSS_MB = 150;

function targetsOf(rows: Row[]): Target[] {
  const targets: Target[] = [];
  const purchases = rows.filter((r) => r.label.startsWith("complete purchases"));
  for (const row of purchases) {
    // The service's work a purchase against the database's for the same purchase: the service
    // should not cost more than the PostgreSQL it drives. Unknown when PostgreSQL is elsewhere.
    const postgres = row.othersCpuMsPerOp?.postgres;
    targets.push({
      what: `${row.label}: service CPU a purchase <= PostgreSQL's`,
      measured:
        postgres === undefined
          ? `${fixed(row.cpuMsPerOp, 3)} ms; PostgreSQL's unknown (not on this machine)`
          : `${fixed(row.cpuMsPerOp, 3)} ms against ${postgres.toFixed(3)} ms`,
      met: postgres === undefined ? undefined : (row.cpuMsPerOp ?? Number.POSITIVE_INFINITY) <= postgres,
    });
  }
  for (const row of purchases) {
    // In a closed loop the median is players over rate; the tail over it is what the service adds.
    const ratio = row.p99 / row.p50;
    targets.push({
      what: `${row.label}: p99 <= ${TAIL_OVER_MEDIAN}x p50`,
      measured: `${fixed(row.p99, 1)} ms, ${fixed(ratio, 2)}x ${fixed(row.p50, 1)} ms`,
      met: ratio <= TAIL_OVER_MEDIAN,
    });
  }
  for (const rest of rows.filter((r) => r.label === REST)) {
    const bare = rest.ratios?.bare ?? Number.NaN;
    targets.push({
      what: `${rest.label}: >= ${REST_OVER_BARE}x bare node:http`,
      measured: `${fixed(bare, 2)}x`,
      met: bare >= REST_OVER_BARE,
    });
  }
  // Every row of the service on PostgreSQL; the embedded PGlite row measures the embedded
  // database's share, which is no replica's.
  for (const row of rows.filter((r) => r.serviceOnPostgres)) {
    targets.push({
      what: `${row.label}: peak RSS <= ${PEAK_RSS_MB} MB`,
      measured: `${fixed(row.peakRssMb, 0)} MB`,
      met: (row.peakRssMb ?? Number.POSITIVE_INFINITY) <= PEAK_RSS_MB,
    });
  }
  return targets;
}

async function loadAll(): Promise<void> {
  if ((mode === "all" || mode === "purchase") && !serverUrl) {
    console.log("\npurchase load and pgbench skipped: set BENCH_DATABASE_URL to a PostgreSQL server\n");
  }
  const rounds: Row[][] = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await measureRound());
  const rows = combine(rounds);
  const targets = targetsOf(rows);
  const rest = rows.find((r) => r.label === REST);
  const embedded = rows.find((r) => r.label.includes("embedded PGlite"));
  if (embedded?.peakRssMb !== undefined && rest?.peakRssMb !== undefined)
    console.log(
      `\nembedded PGlite's share of RSS under the read load: ${(embedded.peakRssMb - rest.peakRssMb).toFixed(0)} MB (${embedded.peakRssMb.toFixed(0)} MB on PGlite, ${rest.peakRssMb.toFixed(0)} MB on PostgreSQL)`,
    );
  const database = serverUrl ? "PostgreSQL (a database of its own per target)" : "PGlite (in process)";
  console.log(
    `\nnpm run bench: ${DURATION_S}s measured after ${WARMUP_S}s warm-up each (purchases after ${PURCHASE_WARMUP} warm-up purchases a service process)${ROUNDS > 1 ? `, ${ROUNDS} rounds in turns (medians; ratios within a round)` : ""}; reads ${CONNECTIONS} connections; database ${database}${memoryCgroup ? `; targets under a ${memoryCgroup.limitMb} MB memory limit` : ""}; ${new Date().toISOString()}\n`,
  );
  // scripts/bench-turns.mjs reads this table and the CPU lines below from the output, as older
  // checkouts print them: keep their columns and order.
  console.log(
    ["what", "per s", "p50 ms", "p99 ms", "service CPU ms/op", "peak RSS MB", "SQL/op", "errors", "ratio"].join(" | "),
  );
  for (const r of rows) {
    console.log(
      [
        r.label,
        r.rate.toFixed(0),
        fixed(r.p50, 2),
        fixed(r.p99, 2),
        fixed(r.cpuMsPerOp, 3),
        fixed(r.peakRssMb, 0),
        fixed(r.queriesPerOp, 1),
        r.errors,
        ratioText(r),
      ].join(" | "),
    );
  }
  const split = rows.filter((r) => r.othersCpuMsPerOp !== undefined);
  if (split.length > 0) {
    console.log(
      "\nCPU a purchase or call by process (user + system, ms): the parties share this machine's cores, which bound the rate",
    );
    for (const r of split) {
      const { postgres, simulator, loadGenerator } = r.othersCpuMsPerOp ?? { loadGenerator: 0 };
      const total = (r.cpuMsPerOp ?? 0) + (postgres ?? 0) + (simulator ?? 0) + loadGenerator;
      const bound =
        postgres === undefined
          ? "PostgreSQL is not on this machine"
          : `${total.toFixed(2)} ms in all: ${availableParallelism()} cores allow at most ${((1000 * availableParallelism()) / total).toFixed(0)}/s`;
      console.log(
        `${r.label}: service ${fixed(r.cpuMsPerOp, 3)}${r.userShare === undefined ? "" : ` (${(100 * r.userShare).toFixed(0)} % user)`}, PostgreSQL ${fixed(postgres, 3) || "n/a"}, ${simulator === undefined ? "" : `simulator ${simulator.toFixed(2)}, `}load generator ${loadGenerator.toFixed(3)}; ${bound}`,
      );
    }
  }
  if (ROUNDS > 1) {
    console.log("\neach round's ratios, in the order measured:");
    for (const row of rows.filter(
      (r) => r.ratios?.pgbenchN !== undefined || r.ratios?.pgbenchS !== undefined || r.label === REST,
    )) {
      const each = rounds.map((round) => round.find((r) => r.label === row.label)).map((r) => (r ? ratioText(r) : "-"));
      console.log(`${row.label}: ${each.join(" | ")}`);
    }
  }
  if (targets.length > 0) {
    console.log(
      "\ntargets (docs/performance.md, Targets; the rate against another checkout: scripts/bench-turns.mjs):",
    );
    for (const t of targets) {
      console.log(`${t.met === undefined ? "n/a    " : t.met ? "met    " : "MISSED "} ${t.what}: ${t.measured}`);
    }
  }
}

async function soak(): Promise<void> {
  const requests = settings.BENCH_SOAK_REQUESTS;
  const child = startChild("target-process", ["service"]);
  try {
    const ready = await nextMessage<Ready>(child, "ready");
    console.log(`\nsoak: ${requests} funding:get over REST, ${CONNECTIONS} connections; service RSS every 10%:`);
    const step = Math.ceil(requests / 10);
    for (let done = 0; done < requests; done += step) {
      await autocannon({
        url: `http://127.0.0.1:${ready.port}${restFunding.path}`,
        method: "POST",
        headers: restFunding.headers,
        body: restFunding.body(ready.campaignKey),
        connections: CONNECTIONS,
        amount: step,
      });
      const { rssBytes } = await ask<{ rssBytes: number }>(child, "rss", "rss");
      console.log(`  ${done + step} requests: RSS ${(rssBytes / 2 ** 20).toFixed(0)} MB`);
    }
  } finally {
    await stopChild(child);
  }
  if (!serverUrl) return;
  const seconds = settings.BENCH_SOAK_S;
  console.log(
    `\nsoak: complete purchases for ${seconds}s, ${PLAYERS} players, ${CAMPAIGNS} campaigns; service RSS every 10 s:`,
  );
  let at = 0;
  const row = await measurePurchases("soak", CAMPAIGNS, seconds, (mb) => {
    at += 10;
    console.log(`  ${at} s: RSS ${mb.toFixed(0)} MB`);
  });
  console.log(
    `  ${row.rate.toFixed(0)} purchases/s, p99 ${row.p99.toFixed(1)} ms, peak RSS ${fixed(row.peakRssMb, 0)} MB, errors ${row.errors}`,
  );
}

async function startToReady(): Promise<void> {
  const cpu = (values: (number | undefined)[]) =>
    values.every((v) => v !== undefined) ? `${median(values as number[]).toFixed(0)} ms` : "n/a";
  const entry = import.meta.url.endsWith(".js") ? "node dist/src/main.js" : "src/main.ts under a TypeScript loader";
  console.log(
    `\nstart to ready (spawn until /readyz is 200; CPU: user + system time until then, of every process started, and of the service's main thread):`,
  );
  const line = (what: string, starts: StartTime[]) =>
    `${what}: ${median(starts.map((s) => s.ms)).toFixed(0)} ms, CPU ${cpu(starts.map((s) => s.cpuMs))}, main thread ${cpu(starts.map((s) => s.mainThreadCpuMs))}`;
  const report = (label: string, starts: StartTimes) => {
    console.log(line(`${label}, first start, ${entry}`, [starts.first]));
    for (const [how, warm] of [
      [entry, starts.warm],
      ["npm start", starts.warmNpmStart],
    ] as const) {
      console.log(
        `${line(`${label}, warm start, ${how}, median of ${WARM_STARTS}`, warm)} (each: ${warm.map((s) => s.ms.toFixed(0)).join(", ")} ms)`,
      );
    }
  };
  report("embedded PGlite", await measureStartToReady(WARM_STARTS));
  if (serverUrl) {
    process.env.TEST_DATABASE_URL = serverUrl;
    interruption.throwIfAborted();
    const db = await createTestDatabase({ migrated: false });
    const drop = undoneOnInterrupt(() => db.drop());
    try {
      const target = db.target as { kind: "postgres"; url: string };
      report("PostgreSQL", await measureStartToReady(WARM_STARTS, target.url));
    } finally {
      await drop();
    }
  }
}

await runUnlessInterrupted(async () => {
  if (mode === "soak") await soak();
  else if (mode !== "start") await loadAll();
  if (mode === "all" || mode === "start") await startToReady();
});
