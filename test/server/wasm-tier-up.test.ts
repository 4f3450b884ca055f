import { describe, expect, it } from "vitest";
import { serviceNodeOptions } from "../support/service-node-options.js";
import { tiersUpUnder } from "../support/wasm-tier.js";

// Prisma's query compiler is WebAssembly that runs mostly at start-up; recompiled by TurboFan
// there it kept the process some 50 MB larger for good. The service is started with V8's
// tier-up budget raised on its command line (npm start, the image's CMD: scripts/deploy-lint.mjs
// holds them equal), never by a flag set at run time (docs/performance.md, "WebAssembly compiled
// twice").
describe("V8's WebAssembly tier-up under the service's node options", () => {
  it("at V8's own budget, a function that ran 30 MB of its code is recompiled by TurboFan", async () => {
    expect(await tiersUpUnder([])).toBe(true);
  });

  it("with npm start's options, the same function stays on the baseline compiler", async () => {
    expect(await tiersUpUnder(serviceNodeOptions())).toBe(false);
  });
});
