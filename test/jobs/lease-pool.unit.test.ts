import { describe, expect, it } from "vitest";
import { createLeasePool } from "../../src/jobs/lease-pool.js";

// docs/webhooks.md "Fairness": the delivery job's pool. A run that finishes frees its slot at
// once and the next due task starts beside the slow ones; nothing waits for a batch.

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Tasks leased from a queue, each run until the test finishes it. */
function queuePool(size: number, names: string[]) {
  const queue = [...names];
  const leases: number[] = [];
  const runs = new Map<string, ReturnType<typeof deferred<string>>>();
  const pool = createLeasePool({
    size,
    lease: async (count: number) => {
      leases.push(count);
      return queue.splice(0, count);
    },
    run: (name: string) => {
      const run = deferred<string>();
      runs.set(name, run);
      return run.promise;
    },
  });
  const finish = async (name: string) => {
    runs.get(name)?.resolve(name);
    await Promise.resolve();
  };
  return { pool, leases, running: () => [...runs.keys()], finish };
}

describe("createLeasePool", () => {
  it("starts the next task as soon as one finishes, beside a run that has not", async () => {
    const { pool, leases, running, finish } = queuePool(2, ["slow", "quick", "next", "last"]);
    expect(await pool.fill()).toHaveLength(2);
    expect(running()).toEqual(["slow", "quick"]);
    expect(await pool.fill()).toEqual([]);
    await finish("quick");
    const [next] = await pool.fill();
    expect(running()).toEqual(["slow", "quick", "next"]);
    // Leased for the free slots only: two, then the one freed.
    expect(leases).toEqual([2, 1]);
    await finish("next");
    expect(await next).toBe("next");
  });

  it("never holds more than its size when fills race", async () => {
    const { pool, leases } = queuePool(3, ["a", "b", "c", "d", "e", "f"]);
    const started = await Promise.all([pool.fill(), pool.fill(), pool.fill()]);
    expect(started.flat()).toHaveLength(3);
    expect(leases).toEqual([3]);
  });

  it("drain() refills each freed slot until nothing is left to lease, then answers every run's result", async () => {
    const { pool, leases, running, finish } = queuePool(2, ["a", "b", "c"]);
    let drained: string[] | undefined;
    const draining = pool.drain().then((results) => {
      drained = results;
    });
    await expect.poll(running).toEqual(["a", "b"]);
    await finish("b");
    await expect.poll(running).toEqual(["a", "b", "c"]);
    await finish("c");
    // Nothing is left to lease, but "a" is still in flight.
    await expect.poll(() => leases).toEqual([2, 1, 1]);
    expect(drained).toBeUndefined();
    await finish("a");
    await draining;
    expect(drained).toEqual(["a", "b", "c"]);
    expect(leases).toEqual([2, 1, 1, 2]);
  });

  it("frees the slot of a run that rejects, and settled() waits for the runs in flight", async () => {
    const failing = createLeasePool({
      size: 1,
      lease: async (count: number) => Array.from({ length: count }, (_, n) => n),
      run: async () => {
        throw new Error("boom");
      },
    });
    const [first] = await failing.fill();
    await expect(first).rejects.toThrow("boom");
    expect(await failing.fill()).toHaveLength(1);
    await failing.settled();

    const { pool, finish } = queuePool(2, ["a"]);
    await pool.fill();
    let settled = false;
    const waiting = pool.settled().then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await finish("a");
    await waiting;
    expect(settled).toBe(true);
  });
});
