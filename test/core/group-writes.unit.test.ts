import { describe, expect, it } from "vitest";
import { groupWrites } from "../../src/core/group-writes.js";

/** A write whose calls the test ends one at a time, recording the items of each. */
function heldWrites() {
  const calls: { items: number[]; finish(error?: Error): void }[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items: [...items], finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { calls, write };
}

describe("groupWrites", () => {
  it("writes an item alone and at once when no write is in flight", async () => {
    const { calls, write } = heldWrites();
    const record = groupWrites(write);
    const written = record(1);
    expect(calls.map((call) => call.items)).toEqual([[1]]);
    calls[0]?.finish();
    await expect(written).resolves.toBeUndefined();
  });

  it("writes the items that arrived during a write together, once it ended", async () => {
    const { calls, write } = heldWrites();
    const record = groupWrites(write);
    const first = record(1);
    const later = [record(2), record(3), record(4)];
    expect(calls).toHaveLength(1);
    calls[0]?.finish();
    await first;
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3, 4]]);
    let settled = false;
    void Promise.all(later).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    calls[1]?.finish();
    await expect(Promise.all(later)).resolves.toEqual([undefined, undefined, undefined]);
  });

  it("fails only the callers whose batch failed", async () => {
    const { calls, write } = heldWrites();
    const record = groupWrites(write);
    const first = record(1);
    const second = record(2);
    calls[0]?.finish(new Error("database gone"));
    await expect(first).rejects.toThrow("database gone");
    calls[1]?.finish();
    await expect(second).resolves.toBeUndefined();
    const third = record(3);
    expect(calls.map((call) => call.items)).toEqual([[1], [2], [3]]);
    calls[2]?.finish();
    await third;
  });

  it("writes a full batch beside the one in flight", async () => {
    const { calls, write } = heldWrites();
    const record = groupWrites(write, 2);
    const all = [record(1), record(2), record(3), record(4)];
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3]]);
    for (const call of calls.slice()) call.finish();
    await Promise.all(all.slice(0, 3));
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3], [4]]);
    calls[2]?.finish();
    await Promise.all(all);
  });
});
