import { describe, expect, it } from "vitest";
import { createFundingChanges } from "../../src/core/funding-changes.js";
import { createRecentReads } from "../../src/services/campaign/public/recent-reads.js";

function setup(ttlMs: number, maxEntries?: number) {
  let clock = 0;
  const changes = createFundingChanges();
  const loads: string[] = [];
  let fail = false;
  const read = createRecentReads({
    load: async (key: string) => {
      loads.push(key);
      if (fail) throw new Error("store down");
      return `${key}@${clock}`;
    },
    ttlMs,
    now: () => new Date(clock),
    maxEntries,
    staleness: changes,
  });
  return {
    read,
    changes,
    loads,
    tick: (ms: number) => {
      clock += ms;
    },
    failNext: (value: boolean) => {
      fail = value;
    },
  };
}

describe("createRecentReads", () => {
  it("loads a key afresh once it is told the key changed, and every key once told all changed", async () => {
    const t = setup(1000);
    await Promise.all([t.read("a"), t.read("b")]);
    t.tick(1);
    t.changes.changed("a");
    expect(await t.read("a")).toBe("a@1");
    expect(await t.read("b")).toBe("b@0");
    t.tick(1);
    t.changes.changedAll();
    expect(await Promise.all([t.read("a"), t.read("b")])).toEqual(["a@2", "b@2"]);
    expect(t.loads).toEqual(["a", "b", "a", "a", "b"]);
  });

  it("does not share a load under way when the key changed meanwhile", async () => {
    const t = setup(1000);
    const before = t.read("a");
    t.tick(1);
    t.changes.changed("a");
    const after = t.read("a");
    expect(await before).toBe("a@0");
    expect(await after).toBe("a@1");
  });

  it("answers a key from one load until the time to live passes", async () => {
    const t = setup(1000);
    expect(await t.read("a")).toBe("a@0");
    t.tick(999);
    expect(await t.read("a")).toBe("a@0");
    t.tick(1);
    expect(await t.read("a")).toBe("a@1000");
    expect(t.loads).toEqual(["a", "a"]);
  });

  it("shares one load between concurrent callers of a key", async () => {
    const t = setup(1000);
    const answers = await Promise.all([t.read("a"), t.read("a"), t.read("b")]);
    expect(answers).toEqual(["a@0", "a@0", "b@0"]);
    expect(t.loads).toEqual(["a", "b"]);
  });

  it("keeps no failure: the next caller loads again", async () => {
    const t = setup(1000);
    t.failNext(true);
    await expect(t.read("a")).rejects.toThrow("store down");
    t.failNext(false);
    expect(await t.read("a")).toBe("a@0");
    expect(t.loads).toEqual(["a", "a"]);
  });

  it("reads every time when the time to live is 0", async () => {
    const t = setup(0);
    await t.read("a");
    await t.read("a");
    expect(t.loads).toEqual(["a", "a"]);
  });

  it("drops the oldest key past its size", async () => {
    const t = setup(1000, 2);
    await t.read("a");
    await t.read("b");
    await t.read("c");
    await t.read("a");
    expect(t.loads).toEqual(["a", "b", "c", "a"]);
  });
});
