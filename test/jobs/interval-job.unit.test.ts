import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIntervalJob } from "../../src/jobs/interval-job.js";

// The loop every background job shares, driven by fake timers: what runs when is decided by
// the test, never raced.

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("createIntervalJob", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const logger = pino({ level: "silent" });

  it("runs every interval once started, never two runs at once, and stop waits for the run in hand", async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let gate = deferred();
    const job = createIntervalJob({
      name: "test",
      intervalMs: 100,
      logger,
      runOnce: async () => {
        active += 1;
        most = Math.max(most, active);
        runs += 1;
        await gate.promise;
        active -= 1;
      },
    });
    job.start();
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    job.wake();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    gate = deferred();
    gate.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect({ runs, most, stopped }).toEqual({ runs: 1, most: 1, stopped: true });
  });

  it("logs a failed run and runs again on the next interval", async () => {
    const errors: unknown[] = [];
    const spy = pino({ level: "error" }, { write: (line: string) => errors.push(JSON.parse(line)) });
    let runs = 0;
    const job = createIntervalJob({
      name: "failing",
      intervalMs: 10,
      logger: spy,
      runOnce: async () => {
        runs += 1;
        throw new Error("boom");
      },
    });
    job.start();
    await vi.advanceTimersByTimeAsync(25);
    await job.stop();
    expect(runs).toBe(2);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ job: "failing", err: { message: "boom" } });
  });

  it("wakes early, runs again at once while runAgain says work waits, and only once started", async () => {
    const results = [true, true, false];
    let runs = 0;
    const job = createIntervalJob({
      name: "batches",
      intervalMs: 60_000,
      logger,
      runOnce: async () => results[runs++] ?? false,
      runAgain: (more) => more,
    });
    job.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(0);
    job.start();
    job.wake();
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(4);
    expect(job.stopping()).toBe(false);
    await job.stop();
    expect(job.stopping()).toBe(true);
  });

  it("unrefs its timer so it never keeps the process alive", () => {
    vi.useRealTimers();
    const unref = vi.spyOn(globalThis, "setTimeout");
    const job = createIntervalJob({ name: "quiet", intervalMs: 60_000, logger, runOnce: async () => undefined });
    job.start();
    const timer = unref.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    unref.mockRestore();
    return job.stop();
  });
});
