import { describe, expect, it } from "vitest";
import { withoutBuildCheck } from "../../bench/child-exec-argv.js";

describe("the bench children's node options", () => {
  it("leave out the preloaded build check, in either spelling, and keep the rest", () => {
    expect(withoutBuildCheck(["--import", "./scripts/ensure-built.mjs", "--max-semi-space-size=16"])).toEqual([
      "--max-semi-space-size=16",
    ]);
    expect(withoutBuildCheck(["--import=./scripts/ensure-built.mjs", "--import", "tsx"])).toEqual(["--import", "tsx"]);
    expect(withoutBuildCheck([])).toEqual([]);
  });
});
