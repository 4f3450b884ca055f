import type { Logger } from "pino";
import type { Job } from "./job.js";

export interface IntervalJobOptions<T> {
  name: string;
  /** Time between the end of one run and the start of the next. */
  intervalMs: number;
  /** One run; what it throws is logged, and the next run comes as usual. */
  runOnce: () => Promise<T>;
  logger: Logger;
  /** Whether a run's result leaves work waiting: the next run then starts at once. */
  runAgain?: (result: T) => boolean;
}

/** What a job is made from: its dependencies, and the time between its runs. */
export interface JobOptions<D> {
  deps: D;
  /** Time between runs; work left waiting shortens it (runAgain). */
  intervalMs: number;
}

export type IntervalJob<T = unknown> = Job & {
  /** Runs now, or right after the run in progress; nothing while the job is not started. */
  wake(): void;
  /** True from stop() until the next start(): a long run lets go at its next safe point. */
  stopping(): boolean;
  /** One run outside the loop, what it came to: tests run a job's passes themselves. */
  runOnce(): Promise<T>;
};

/**
 * The loop every background job shares: one run at a time, `intervalMs` after the previous
 * one ended, until stop(), which waits for a run in progress. Timers are unref'd so a job
 * never keeps the process alive on its own.
 */
export function createIntervalJob<T>(options: IntervalJobOptions<T>): IntervalJob<T> {
  const { name, intervalMs, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;
  let stopRequested = false;

  function wait(delayMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  function run(): void {
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = options
      .runOnce()
      .then((result) => {
        if (options.runAgain?.(result)) again = true;
      })
      .catch((error: unknown) => logger.error({ err: error, job: name }, `${name} run failed`))
      .finally(() => {
        running = undefined;
        const now = again;
        again = false;
        if (started) wait(now ? 0 : intervalMs);
      });
  }

  return {
    name,
    start() {
      if (started) return;
      started = true;
      stopRequested = false;
      if (!running) wait(intervalMs);
    },
    async stop() {
      started = false;
      stopRequested = true;
      clearTimeout(timer);
      await running;
    },
    wake() {
      if (started) run();
    },
    stopping: () => stopRequested,
    runOnce: options.runOnce,
  };
}
