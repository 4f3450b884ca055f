import v8 from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import { deferWasmTierUp } from "../../src/store/wasm-tier-up.js";
import { tiersUpAfter, V8_DEFAULT_TIERING_BUDGET } from "../support/wasm-tier.js";

describe("deferWasmTierUp", () => {
  // The raised budget is what every database this process opens sets anyway.
  afterEach(() => deferWasmTierUp());

  it("keeps a function that ran 30 MB of code on the baseline compiler, where V8's budget recompiles it", async () => {
    v8.setFlagsFromString(`--wasm-tiering-budget=${V8_DEFAULT_TIERING_BUDGET}`);
    expect(await tiersUpAfter(30)).toBe(true);

    deferWasmTierUp();
    expect(await tiersUpAfter(30)).toBe(false);
  });
});
