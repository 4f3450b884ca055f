/** What a sweep looks at: deadlines kept as `performance.now()` times. */
export interface Deadlines {
  /** Acts on every deadline `now` has reached. */
  check(now: number): void;
  /** Moves every deadline on by `ms`. */
  postpone(ms: number): void;
}

export interface DeadlineSweep {
  /** Starts the interval, unless it runs already. */
  start(): void;
  stop(): void;
}

/**
 * One interval that looks at the deadlines, as Node's own HTTP server checks its connections: a
 * timer made and cleared per request and per idle spell was a few microseconds of every call
 * (docs/performance.md, "Counters and deadlines without per-call work"). A deadline is kept to
 * within an interval, never early.
 *
 * A sweep this late means the service did not run: nothing a client sent could be read, nor
 * anything sent to it, and the sweep runs before the bytes waiting in the kernel are. The
 * deadlines move on by that time rather than count it against the clients.
 */
export function createDeadlineSweep(everyMs: number, deadlines: Deadlines): DeadlineSweep {
  let interval: NodeJS.Timeout | undefined;
  let last = 0;
  const sweep = () => {
    const now = performance.now();
    const stalledMs = now - last - everyMs;
    if (stalledMs > everyMs) deadlines.postpone(stalledMs);
    last = now;
    deadlines.check(now);
  };
  return {
    start() {
      if (interval !== undefined) return;
      last = performance.now();
      interval = setInterval(sweep, everyMs);
      interval.unref();
    },
    stop() {
      clearInterval(interval);
      interval = undefined;
    },
  };
}
