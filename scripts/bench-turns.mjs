#!/usr/bin/env node
// node scripts/bench-turns.mjs <other checkout> [rounds=3] [mode=purchase]
//
// The bench of this checkout against another's (an older main, a branch), in turns on the same
// machine in the same session (docs/performance.md, "Turns"): `node dist/bench/run.js <mode>` in
// each checkout, with this process's environment (the same BENCH_* settings for both;
// BENCH_DATABASE_URL required), `rounds` runs each, in the order this, other, other, this, this,
// other... so neither checkout always runs first while the machine drifts. Each run's printed table
// is parsed (both checkouts' bench prints it the same way; an older one may lack any other
// output), and one table gives each row's median over the runs in both checkouts and this over
// other, for the rows both have. Then the target that needs two checkouts: each purchase row's
// rate at least 90 % of the other's. Both checkouts must be built (`npm run build`).
//
// Each run's whole output is kept in a folder of its own under the system's temporary folder,
// named at the end. Exit status: 0 when it ran (whether the target was met or not), 1 when a run
// failed, 2 on a usage error.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const USAGE = "usage: node scripts/bench-turns.mjs <other checkout dir> [rounds=3] [mode=purchase]";
const RATE_SHARE = 0.9;
const THIS = resolve(fileURLToPath(new URL("..", import.meta.url)));

function fail(message, status) {
  console.error(message);
  process.exit(status);
}

const [otherArg, roundsArg = "3", mode = "purchase"] = process.argv.slice(2);
if (!otherArg) fail(USAGE, 2);
const rounds = Number(roundsArg);
if (!Number.isInteger(rounds) || rounds < 1) fail(`rounds must be a whole number of at least 1\n${USAGE}`, 2);
if (!["purchase", "read", "all"].includes(mode)) fail(`mode must be purchase, read or all\n${USAGE}`, 2);
if (!process.env.BENCH_DATABASE_URL) fail("BENCH_DATABASE_URL must name a PostgreSQL server (as for npm run bench)", 2);
const other = resolve(otherArg);
for (const dir of [THIS, other]) {
  if (!existsSync(join(dir, "dist/bench/run.js"))) fail(`${dir}: no dist/bench/run.js; run npm run build there`, 2);
}
if (other === THIS) fail("the other checkout is this one", 2);

/** Runs the bench in `dir`, its output passed through and returned. */
function runBench(dir) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ["dist/bench/run.js", mode], {
      cwd: dir,
      env: process.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) done(output);
      else reject(new Error(`${dir}: node dist/bench/run.js ${mode} ended with ${signal ?? `status ${code}`}`));
    });
  });
}

/**
 * A run's rows by label, from the table bench/run.ts prints (`what | per s | p50 ms | p99 ms |
 * service CPU ms/op | peak RSS MB | ...`, then one line a row until a blank line) and its lines of
 * CPU by process (`<label>: service <ms> (...), PostgreSQL <ms>, ...`).
 */
function parseRun(output) {
  const lines = output.split("\n");
  const header = lines.findIndex((line) => line.startsWith("what | per s | p50 ms | p99 ms |"));
  if (header < 0) throw new Error("no table in the bench's output");
  const number = (text) => (text === undefined || text.trim() === "" ? Number.NaN : Number(text));
  const rows = new Map();
  for (const line of lines.slice(header + 1)) {
    if (line.trim() === "") break;
    const [label, rate, p50, p99, cpu, rss] = line.split(" | ");
    rows.set(label, { rate: number(rate), p50: number(p50), p99: number(p99), cpu: number(cpu), rss: number(rss) });
  }
  for (const line of lines) {
    const split = /^(.*): service [\d.]+.*?, PostgreSQL ([\d.]+),/.exec(line);
    const row = split && rows.get(split[1]);
    if (row) row.postgresCpu = number(split[2]);
  }
  return rows;
}

/** The median (of an even count, the mean of the two middle values); NaN when there is none. */
function median(values) {
  const sorted = values.filter((v) => v !== undefined && !Number.isNaN(v)).sort((x, y) => x - y);
  if (sorted.length === 0) return Number.NaN;
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

const keep = mkdtempSync(join(tmpdir(), "bench-turns-"));
const runs = { this: [], other: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ["this", "other"] : ["other", "this"];
  for (const which of order) {
    const dir = which === "this" ? THIS : other;
    console.log(`\n== round ${round + 1} of ${rounds}: ${which} (${dir}) ==`);
    let output;
    try {
      output = await runBench(dir);
    } catch (error) {
      fail(error.message, 1);
    }
    writeFileSync(join(keep, `${round + 1}-${which}.txt`), output);
    runs[which].push(parseRun(output));
  }
}

const FIGURES = [
  ["rate", "per s", 0],
  ["p50", "p50 ms", 2],
  ["p99", "p99 ms", 2],
  ["cpu", "service CPU ms/op", 3],
  ["postgresCpu", "PostgreSQL CPU ms/op", 3],
  ["rss", "peak RSS MB", 0],
];
const labels = [...(runs.this[0]?.keys() ?? [])];
const shared = labels.filter((label) => runs.other.every((run) => run.has(label)));
const unshared = [
  ...labels.filter((label) => !shared.includes(label)),
  ...[...(runs.other[0]?.keys() ?? [])].filter((label) => !labels.includes(label)),
];
const medianOf = (which, label, figure) => median(runs[which].map((run) => run.get(label)?.[figure]));
const fixed = (value, digits) => (Number.isNaN(value) ? "-" : value.toFixed(digits));

console.log(
  `\nbench-turns: ${rounds} run${rounds > 1 ? "s" : ""} of \`node dist/bench/run.js ${mode}\` in each checkout, in turns; ${new Date().toISOString()}`,
);
console.log(`this:  ${THIS}\nother: ${other}`);
console.log("each cell: this / other (this over other), medians over the runs\n");
console.log(["what", ...FIGURES.map(([, title]) => title)].join(" | "));
for (const label of shared) {
  const cells = FIGURES.map(([figure, , digits]) => {
    const mine = medianOf("this", label, figure);
    const theirs = medianOf("other", label, figure);
    if (Number.isNaN(mine) && Number.isNaN(theirs)) return "";
    return `${fixed(mine, digits)} / ${fixed(theirs, digits)} (${fixed(mine / theirs, 2)}x)`;
  });
  console.log([label, ...cells].join(" | "));
}
if (unshared.length > 0) console.log(`\nrows in one checkout only, left out: ${unshared.join("; ")}`);

const purchases = shared.filter((label) => label.startsWith("complete purchases"));
console.log(`\ntarget (docs/performance.md, Targets):`);
if (purchases.length === 0) console.log("n/a     no purchase rows in both checkouts' runs (mode purchase or all)");
for (const label of purchases) {
  const share = medianOf("this", label, "rate") / medianOf("other", label, "rate");
  const met = share >= RATE_SHARE;
  console.log(
    `${met ? "met    " : "MISSED "} ${label}: rate >= ${100 * RATE_SHARE} % of the other's: ${fixed(100 * share, 1)} %`,
  );
}
console.log(`\neach run's output: ${keep}`);
