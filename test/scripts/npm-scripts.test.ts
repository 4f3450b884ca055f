import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Every `npm run` script works in a fresh clone. Each one needs node_modules (tsx,
// buf, esbuild, the built service...), so each installs first: through a pre-script, or, for
// the scripts that run compiled code, through ensure-built preloaded into the script's own
// process (it installs, then builds when stale, before the entry loads: docs/performance.md).
const { scripts } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  scripts: Record<string, string>;
};
const own = Object.keys(scripts).filter(
  (name) => !/^(pre|post)/.test(name) || !(name.replace(/^(pre|post)/, "") in scripts),
);
const PRELOADED = /^exec node (--[\w-]+=\S+ )*--import \.\/scripts\/ensure-built\.mjs dist\//;

describe("package.json scripts", () => {
  it.each(own)("%s installs the dependencies first in a fresh clone", (name) => {
    if (PRELOADED.test(scripts[name] ?? "")) {
      expect(scripts[`pre${name}`]).toBeUndefined();
      return;
    }
    expect(scripts[`pre${name}`] ?? "").toMatch(/^node scripts\/ensure-installed\.mjs( |$)/);
  });

  it("ensure-built installs before it builds", () => {
    const source = readFileSync(new URL("../../scripts/ensure-built.mjs", import.meta.url), "utf8");
    expect(source).toMatch(/import \{ ensureInstalled[^}]*\} from "\.\/ensure-installed\.mjs"/);
  });
});
