import { describe, expect, it } from "vitest";
import { smallYoungGeneration } from "../../src/startup/young-generation.js";

const GB = 2 ** 30;
const machine = { totalBytes: 24 * GB, constrainedBytes: 0, execArgv: [], nodeOptions: undefined };

describe("smallYoungGeneration", () => {
  it("says nothing with 2 GB or more, where V8 sizes the young generation as the service runs it", () => {
    expect(smallYoungGeneration(machine)).toBeUndefined();
    expect(smallYoungGeneration({ ...machine, constrainedBytes: 4 * GB })).toBeUndefined();
    expect(smallYoungGeneration({ ...machine, constrainedBytes: 2 * GB })).toBeUndefined();
    // cgroup v1 without a limit reports a number larger than the machine.
    expect(smallYoungGeneration({ ...machine, constrainedBytes: 2 ** 64 })).toBeUndefined();
  });

  it("warns under a container's limit, or on a small machine, naming the memory it was sized by", () => {
    expect(smallYoungGeneration({ ...machine, constrainedBytes: 512 * 2 ** 20 })).toMatchObject({
      memoryMb: 512,
      message: expect.stringContaining("--max-semi-space-size=8"),
    });
    expect(smallYoungGeneration({ ...machine, totalBytes: 1 * GB })?.memoryMb).toBe(1024);
  });

  it("says nothing when node was given the young generation's size, on its command line or in NODE_OPTIONS", () => {
    const pod = { ...machine, constrainedBytes: 512 * 2 ** 20 };
    expect(smallYoungGeneration({ ...pod, execArgv: ["--max-semi-space-size=16"] })).toBeUndefined();
    expect(smallYoungGeneration({ ...pod, execArgv: ["--max-semi-space-size", "8"] })).toBeUndefined();
    expect(smallYoungGeneration({ ...pod, execArgv: ["--max_semi_space_size=16"] })).toBeUndefined();
    expect(
      smallYoungGeneration({ ...pod, nodeOptions: "--enable-source-maps --max-semi-space-size=16" }),
    ).toBeUndefined();
    expect(smallYoungGeneration({ ...pod, execArgv: ["--max-old-space-size=256"] })).toBeDefined();
  });
});
