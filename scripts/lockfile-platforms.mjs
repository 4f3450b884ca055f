// The npm registry these machines reach does not serve other platforms' builds of Biome and
// buf (e.g. @biomejs/cli-darwin-arm64: 404), so `npm install` leaves them out of
// package-lock.json, and `npm ci` then refuses the lockfile ("Missing: ... from lock file").
// This adds an entry for each such optional dependency, with the os/cpu/libc that make npm
// skip it here, exactly as a lockfile written on a full registry would. Run it after any
// `npm install`: `node scripts/lockfile-platforms.mjs`. Idempotent.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));

// Platform of a package from its name suffix: <os>-<cpu>[-musl].
const cpus = { arm64: "arm64", x64: "x64", armv7: "arm" };
function platformOf(name) {
  const match = name.match(/-(android|darwin|linux|win32)-(arm64|x64|armv7)(-musl)?$/);
  if (!match) return undefined;
  const [, os, cpu, musl] = match;
  return { os: [os], cpu: [cpus[cpu]], ...(musl ? { libc: ["musl"] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${name}`;
    const platform = platformOf(name);
    if (lock.packages[at] || !platform) continue;
    lock.packages[at] = { version, ...platform, dev: entry.dev, optional: true };
    if (!entry.dev) delete lock.packages[at].dev;
    added++;
    void path;
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`lockfile: ${added} platform entries added\n`);
