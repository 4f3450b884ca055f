// `npm start` and `npm test` work straight after cloning, and after a pull that changed the
// lockfile: when node_modules does not hold what package-lock.json locks, install it exactly as
// locked (generated code is committed, so nothing else is needed). Up to date, this is two
// stats: it runs before every `npm run` script (docs/performance.md).
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** A file's modification time in ms, undefined when it does not exist. */
export function mtimeOf(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
}

/**
 * Why node_modules in `root` must be installed again, or undefined when it holds what is locked.
 * npm records each install in node_modules/.package-lock.json, written with (or after) the
 * lockfile it installed; a lockfile newer than that record changed since (a pull, a checkout, an
 * edit), so what is installed may not be what it locks.
 */
export function installStaleness(root) {
  const installed = mtimeOf(join(root, "node_modules", ".package-lock.json"));
  if (installed === undefined) return "node_modules is missing";
  const locked = mtimeOf(join(root, "package-lock.json"));
  if (locked !== undefined && locked > installed) return "package-lock.json changed since the last install";
  return undefined;
}

/** Installs with `npm ci` when needed; returns the exit status (0: nothing to do or installed). */
export function ensureInstalled(root = ROOT) {
  const why = installStaleness(root);
  if (why === undefined) return 0;
  process.stderr.write(
    `${why}: installing the locked dependencies with npm ci (about a minute; once after a clone or a lockfile change)\n`,
  );
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  return result.status ?? 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exit(ensureInstalled());
