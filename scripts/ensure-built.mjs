// Preloaded into every `npm run` script that runs compiled code (start, dev, admin, steam-sim,
// bench: `node --import ./scripts/ensure-built.mjs dist/...`), so it finishes before that
// entry is loaded, in the same process: installs the dependencies when they are not what is
// locked (ensure-installed.mjs), then builds when dist/ is missing or older than anything the
// build is made from, so a fresh clone, or a checkout after a pull, never runs stale code.
// Without sources (an image that ships only dist/) there is nothing to compare and the build is
// used as it is. Up to date, this is a stat of each source file: no process is started, and no
// pre-script process before the service either (docs/performance.md). `node
// scripts/ensure-built.mjs` does the same alone.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureInstalled, mtimeOf } from "./ensure-installed.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

// Written by build.mjs at the end of a build.
const STAMP = join("dist", ".built");
// Folders whose files are compiled, bundled or copied into dist/ (bench imports test/support).
const SOURCE_DIRS = [
  "src",
  "gen",
  "bench",
  "test/support",
  "prisma/migrations",
  "openapi",
  "console",
  "clients/ts/src",
  "clients/browser",
];
// Files that change what the build makes from the same sources: the compiler's settings, the
// build recipe, and the packages it bundles (the lockfile, and npm's record of what it installed,
// which a reinstall renews).
const BUILD_INPUTS = [
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
  "scripts/build.mjs",
  "scripts/embedded-database-image.mjs",
  "node_modules/.package-lock.json",
];

/**
 * The newest entry under `dir` (relative to `root`) and its time. Folders count too: a file
 * removed or renamed changes only its folder's time.
 */
function newestUnder(root, dir) {
  const mtime = mtimeOf(join(root, dir));
  if (mtime === undefined) return { path: undefined, mtime: 0 };
  let newest = { path: `${dir}/`, mtime };
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newestUnder(root, path) : { path, mtime: mtimeOf(join(root, path)) ?? 0 };
    if (found.mtime > newest.mtime) newest = found;
  }
  return newest;
}

/**
 * Why dist/ in `root` must be built again, or undefined when it is current. A source or build
 * input newer than the last build's stamp names itself.
 */
function buildStaleness(root) {
  const built = mtimeOf(join(root, STAMP));
  if (mtimeOf(join(root, "src")) === undefined) {
    return built === undefined ? "dist/ is missing and there are no sources to build it from" : undefined;
  }
  if (built === undefined) return "dist/ is not built";
  for (const file of BUILD_INPUTS) {
    if ((mtimeOf(join(root, file)) ?? 0) > built) return `${file} changed since the last build`;
  }
  for (const dir of SOURCE_DIRS) {
    const newest = newestUnder(root, dir);
    if (newest.mtime > built) return `${newest.path} changed since the last build`;
  }
  return undefined;
}

/** Installs and builds when needed; returns the exit status (0: current, or made current). */
async function ensureBuilt(root = ROOT) {
  const installed = ensureInstalled(root);
  if (installed !== 0) return installed;
  const why = buildStaleness(root);
  if (why === undefined) return 0;
  if (mtimeOf(join(root, "src")) === undefined) {
    process.stderr.write(`${why}\n`);
    return 1;
  }
  process.stderr.write(`${why}: building dist/ with npm run build (about half a minute; once after a change)\n`);
  // In a process of its own: the build tools (tsc, esbuild's service) stay out of the process
  // this prepares, which may be the service.
  const result = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
  return result.status ?? 1;
}

const status = await ensureBuilt();
if (status !== 0) process.exit(status);
