import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startNodeOptions } from "../../scripts/start-node-options.mjs";
import { ROOT } from "../support/built-entries.js";

// One reading of npm start's command, for the deploy lint (the image's CMD must repeat its node
// options) and for the tests and the bench (they start the service with them).
describe("npm start's node options", () => {
  it("are what comes between `exec node` and the build check", () => {
    expect(
      startNodeOptions("exec node --max-semi-space-size=8 --import ./scripts/ensure-built.mjs dist/src/main.js"),
    ).toEqual(["--max-semi-space-size=8"]);
    expect(startNodeOptions("exec node --import ./scripts/ensure-built.mjs dist/src/main.js")).toEqual([]);
    expect(
      startNodeOptions("exec node --max-semi-space-size=8 --enable-source-maps --import x.mjs dist/src/main.js"),
    ).toEqual(["--max-semi-space-size=8", "--enable-source-maps"]);
  });

  it("are undefined for a command of another shape, so neither reader guesses", () => {
    expect(startNodeOptions("node dist/src/main.js")).toBeUndefined();
    expect(startNodeOptions("exec node --max-semi-space-size=8 dist/src/main.js")).toBeUndefined();
  });

  it("are found in this project's own npm start", () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
    expect(startNodeOptions(scripts.start)?.some((option) => /^--max-semi-space-size=\d+$/.test(option))).toBe(true);
  });
});
