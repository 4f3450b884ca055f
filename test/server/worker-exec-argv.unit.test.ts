import { describe, expect, it } from "vitest";
import { workerExecArgv } from "../../src/startup/worker-exec-argv.js";

describe("workerExecArgv", () => {
  it("drops npm start's build check, in either spelling", () => {
    expect(workerExecArgv(["--import", "./scripts/ensure-built.mjs"])).toEqual([]);
    expect(workerExecArgv(["--import=./scripts/ensure-built.mjs"])).toEqual([]);
    expect(workerExecArgv(["--import", "/app/scripts/ensure-built.mjs"])).toEqual([]);
  });

  it("keeps npm start's V8 options: a worker's heap is the primary's", () => {
    expect(workerExecArgv(["--max-semi-space-size=16", "--import", "./scripts/ensure-built.mjs"])).toEqual([
      "--max-semi-space-size=16",
    ]);
  });

  it("keeps every other option, other preloads included", () => {
    const options = ["--max-old-space-size=512", "--import", "./telemetry.mjs", "--enable-source-maps"];
    expect(workerExecArgv(options)).toEqual(options);
    expect(workerExecArgv(["--cpu-prof", "--import", "./scripts/ensure-built.mjs", "--trace-warnings"])).toEqual([
      "--cpu-prof",
      "--trace-warnings",
    ]);
  });
});
