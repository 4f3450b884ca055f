// A bounded pool of concurrent runs fed by leases (docs/webhooks.md "Fairness"): work is leased
// for the free slots only, and a run that finishes frees its slot at once; nothing waits for a
// slow peer to finish a batch. Leasing is one at a time, so the pool never holds more than `size`.

export interface LeasePoolOptions<T, R> {
  /** Runs at once, at most. */
  size: number;
  /** Leases at most `count` tasks (fewer, or none, when fewer are due). */
  lease(count: number): Promise<T[]>;
  /** One task's run; it settles what went wrong itself (a rejection only frees the slot). */
  run(task: T): Promise<R>;
}

export interface LeasePool<R> {
  /** Leases work for the free slots and starts it; the runs it started (none: nothing due or no slot free). */
  fill(): Promise<Promise<R>[]>;
  /**
   * Fills the slots, again as each run finishes, until nothing more can be leased and no run is
   * in flight; what the runs it started came to.
   */
  drain(): Promise<R[]>;
  /** Resolves once every run in flight now has finished. */
  settled(): Promise<void>;
}

export function createLeasePool<T, R>(options: LeasePoolOptions<T, R>): LeasePool<R> {
  const running = new Set<Promise<R>>();
  let filling: Promise<unknown> = Promise.resolve();

  async function leaseAndStart(): Promise<Promise<R>[]> {
    const free = options.size - running.size;
    if (free <= 0) return [];
    const tasks = await options.lease(free);
    return tasks.map((task) => {
      const run = options.run(task);
      running.add(run);
      const free = () => running.delete(run);
      run.then(free, free);
      return run;
    });
  }

  function fill(): Promise<Promise<R>[]> {
    const next = filling.then(leaseAndStart);
    filling = next.catch(() => undefined);
    return next;
  }

  return {
    fill,
    async drain() {
      const started: Promise<R>[] = [];
      for (;;) {
        const more = await fill();
        started.push(...more);
        if (more.length > 0) continue;
        if (running.size === 0) return Promise.all(started);
        await Promise.race(running);
      }
    },
    async settled() {
      await Promise.allSettled([...running]);
    },
  };
}
