#!/usr/bin/env node
// node scripts/cpu-profile-share.mjs <file.cpuprofile> <operations> [other.cpuprofile <operations>]
//
// Where a V8 CPU profile's time went, by package: each sample's time goes to the package of the
// function it was taken in (node_modules' package, node's own module, our bundle, or V8's own
// entries such as the garbage collector and (idle)), divided by the operations the profile covered,
// in microseconds an operation. Profiles come from `BENCH_CPU_PROF=<dir> npm run bench`, which
// profiles each target's measured interval (docs/performance.md, "Prisma Client's share"); the
// operations are the row's rate times the bench's measured seconds. With a second profile
// (another checkout's, the same row), both side by side and their difference, largest first.

import { readFileSync } from "node:fs";

const USAGE =
  "usage: node scripts/cpu-profile-share.mjs <file.cpuprofile> <operations> [other.cpuprofile <operations>]";

/** Microseconds an operation by package, from one profile. */
function share(file, operations) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const timeOf = new Map();
  profile.samples.forEach((id, i) => {
    timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byPackage = new Map();
  for (const node of profile.nodes) {
    const time = timeOf.get(node.id);
    if (!time) continue;
    const name = packageOf(node.callFrame);
    byPackage.set(name, (byPackage.get(name) ?? 0) + time / operations);
  }
  return byPackage;
}

function packageOf({ url, functionName }) {
  if (url.includes("node_modules/")) return url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, "$1");
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (url) return "(this project's bundle)";
  return functionName || "(native)";
}

const [fileA, opsA, fileB, opsB] = process.argv.slice(2);
if (!fileA || !(Number(opsA) > 0) || (fileB && !(Number(opsB) > 0))) {
  console.error(USAGE);
  process.exit(2);
}
const a = share(fileA, Number(opsA));
const b = fileB ? share(fileB, Number(opsB)) : new Map();
const names = [...new Set([...a.keys(), ...b.keys()])];
const busy = (m) => [...m].filter(([name]) => name !== "(idle)").reduce((sum, [, us]) => sum + us, 0);
const us = (value) => (value ?? 0).toFixed(1).padStart(8);
const rows = names
  .map((name) => ({ name, a: a.get(name) ?? 0, b: b.get(name) ?? 0 }))
  .sort((x, y) => (fileB ? y.a - y.b - (x.a - x.b) : y.a - x.a));
console.log(fileB ? "µs an operation: this | other | difference" : "µs an operation");
for (const row of rows.filter((r) => Math.max(r.a, r.b) >= 1)) {
  console.log(`${us(row.a)}${fileB ? ` |${us(row.b)} |${us(row.a - row.b)}` : ""}  ${row.name}`);
}
console.log(`${us(busy(a))}${fileB ? ` |${us(busy(b))} |${us(busy(a) - busy(b))}` : ""}  all but (idle)`);
