import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const scripts = fileURLToPath(new URL("../../scripts/", import.meta.url));

// A checkout in a temporary folder with the real ensure-installed.mjs and ensure-built.mjs, a
// build.mjs that only writes the stamp and says so, and an `npm` on PATH that only records its
// arguments and writes npm's install record: what the scripts decide, without installing or
// building for real.
const BUILD = `import { mkdirSync, writeFileSync } from "node:fs";
mkdirSync(new URL("../dist/src/", import.meta.url), { recursive: true });
writeFileSync(new URL("../dist/src/main.js", import.meta.url), 'process.stderr.write("SERVICE\\\\n");');
writeFileSync(new URL("../dist/.built", import.meta.url), "");
process.stderr.write("BUILT\\n");
`;
const NPM = `#!/bin/sh
echo "npm $*" >&2
mkdir -p node_modules && echo '{}' > node_modules/.package-lock.json
`;

// Times in seconds: sources written at OLD, installed and built at NEW, later changes at LATER.
const OLD = 1_700_000_000;
const NEW = OLD + 100;
const LATER = OLD + 200;

let checkout: string;

afterEach(() => rmSync(checkout, { recursive: true, force: true }));

function file(path: string, seconds: number, text = ""): void {
  const full = join(checkout, path);
  mkdirSync(dirname(full), { recursive: true });
  if (!existsSync(full)) writeFileSync(full, text);
  utimesSync(full, seconds, seconds);
}

/** A checkout installed and built after its sources were written: nothing to do. */
function upToDate(): void {
  checkout = mkdtempSync(join(tmpdir(), "encore-ensure-"));
  mkdirSync(join(checkout, "bin"));
  writeFileSync(join(checkout, "bin", "npm"), NPM);
  chmodSync(join(checkout, "bin", "npm"), 0o755);
  for (const script of ["ensure-installed.mjs", "ensure-built.mjs"]) {
    mkdirSync(join(checkout, "scripts"), { recursive: true });
    copyFileSync(join(scripts, script), join(checkout, "scripts", script));
  }
  file("scripts/build.mjs", OLD, BUILD);
  file("package.json", OLD, '{ "type": "module" }');
  for (const path of ["package-lock.json", "tsconfig.json", "tsconfig.build.json"]) file(path, OLD);
  for (const path of [
    "src/main.ts",
    "src/store/deep/module.ts",
    "gen/x_pb.ts",
    "prisma/migrations/1_init/migration.sql",
  ]) {
    file(path, OLD);
  }
  for (const dir of ["src/store/deep", "src/store", "src", "gen", "prisma/migrations/1_init", "prisma/migrations"]) {
    utimesSync(join(checkout, dir), OLD, OLD);
  }
  file("node_modules/.package-lock.json", NEW);
  file("dist/.built", NEW);
}

function ensureBuilt(): { status: number | null; output: string } {
  return run("ensure-built.mjs");
}

function run(script: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [...args, join(checkout, "scripts", script)], {
    cwd: checkout,
    env: { PATH: `${join(checkout, "bin")}:${process.env.PATH ?? ""}` },
    encoding: "utf8",
  });
  return { status: result.status, output: result.stderr + result.stdout };
}

describe("ensure-built (before npm start, dev, admin, steam-sim, bench)", () => {
  it("does nothing, and spawns nothing, when the install and the build are current", () => {
    upToDate();
    expect(ensureBuilt()).toEqual({ status: 0, output: "" });
  });

  it.each([
    ["src/store/deep/module.ts"],
    ["prisma/migrations/1_init/migration.sql"],
    ["package.json"],
    ["scripts/build.mjs"],
    ["tsconfig.json"],
  ])("builds again when %s is newer than the build, and names it", (path) => {
    upToDate();
    file(path, LATER);
    expect(ensureBuilt()).toEqual({
      status: 0,
      output: `${path} changed since the last build: building dist/ with npm run build (about half a minute; once after a change)\nBUILT\n`,
    });
  });

  it("builds again when a source file was removed (its folder changed), and names the folder", () => {
    upToDate();
    rmSync(join(checkout, "src/store/deep/module.ts"));
    utimesSync(join(checkout, "src/store/deep"), LATER, LATER);
    expect(ensureBuilt().output).toBe(
      "src/store/deep/ changed since the last build: building dist/ with npm run build (about half a minute; once after a change)\nBUILT\n",
    );
  });

  it("builds when dist/ was never built", () => {
    upToDate();
    rmSync(join(checkout, "dist"), { recursive: true });
    expect(ensureBuilt().output).toBe(
      "dist/ is not built: building dist/ with npm run build (about half a minute; once after a change)\nBUILT\n",
    );
  });

  it("reinstalls when package-lock.json changed since the install (a pull), then rebuilds on the new packages", () => {
    upToDate();
    file("package-lock.json", LATER);
    const { status, output } = ensureBuilt();
    expect(status).toBe(0);
    expect(output).toMatch(
      /^package-lock\.json changed since the last install: installing the locked dependencies with npm ci \(about a minute; once after a clone or a lockfile change\)\nnpm ci --no-audit --no-fund\n.+ changed since the last build: building dist\/ with npm run build \(about half a minute; once after a change\)\nBUILT\n$/,
    );
  });

  it("installs when node_modules is missing", () => {
    upToDate();
    rmSync(join(checkout, "node_modules"), { recursive: true });
    expect(ensureBuilt().output).toMatch(
      /^node_modules is missing: installing the locked dependencies with npm ci \(about a minute; once after a clone or a lockfile change\)\nnpm ci --no-audit --no-fund\n/,
    );
  });

  it("uses dist/ as it is without sources (an image), and refuses when there is neither", () => {
    upToDate();
    rmSync(join(checkout, "src"), { recursive: true });
    file("package.json", LATER);
    expect(ensureBuilt()).toEqual({ status: 0, output: "" });
    rmSync(join(checkout, "dist"), { recursive: true });
    expect(ensureBuilt()).toEqual({
      status: 1,
      output: "dist/ is missing and there are no sources to build it from\n",
    });
  });
});

describe("ensure-built preloaded into the process it prepares (npm start: node --import)", () => {
  const npmStart = () => {
    const result = spawnSync(process.execPath, ["--import", "./scripts/ensure-built.mjs", "dist/src/main.js"], {
      cwd: checkout,
      env: { PATH: `${join(checkout, "bin")}:${process.env.PATH ?? ""}` },
      encoding: "utf8",
    });
    return { status: result.status, output: result.stderr + result.stdout };
  };

  it("builds before the entry is loaded, even one that does not exist yet (a fresh clone)", () => {
    upToDate();
    rmSync(join(checkout, "dist"), { recursive: true });
    expect(npmStart()).toEqual({
      status: 0,
      output:
        "dist/ is not built: building dist/ with npm run build (about half a minute; once after a change)\nBUILT\nSERVICE\n",
    });
    // Built now: the next start only runs the entry.
    expect(npmStart()).toEqual({ status: 0, output: "SERVICE\n" });
  });
});

describe("ensure-installed (before npm test, build, typecheck, lint, generate)", () => {
  it("installs only when package-lock.json is newer than npm's record of the last install", () => {
    upToDate();
    expect(run("ensure-installed.mjs")).toEqual({ status: 0, output: "" });
    file("package-lock.json", LATER);
    expect(run("ensure-installed.mjs")).toEqual({
      status: 0,
      output:
        "package-lock.json changed since the last install: installing the locked dependencies with npm ci (about a minute; once after a clone or a lockfile change)\nnpm ci --no-audit --no-fund\n",
    });
    // npm ci renewed its record: the next run has nothing to do.
    expect(run("ensure-installed.mjs")).toEqual({ status: 0, output: "" });
  });
});
