import { constants } from "node:os";

// A bench stopped half-way (Ctrl-C, `kill`) undoes what it made before it exits: its child
// processes stopped (each drops its database and ends the service it runs), its own scratch
// databases dropped, the services it started ended, its temporary directories removed. Until
// 2026-11-28 a `kill` of the bench left its target process, the service and that target's
// database behind, and a memory cgroup that could not be removed while they ran in it.

type Undo = () => Promise<void>;

const pending = new Set<Undo>();
const controller = new AbortController();

/** Aborted once the bench is interrupted: what it runs with this signal (pgbench) stops with it. */
export const interruption: AbortSignal = controller.signal;

/**
 * `undo`, to be run exactly once: by the work that made what it undoes, when it ends (call the
 * returned function), or by the interrupt, should the bench be stopped first. Either way later
 * callers wait for the same run. Make nothing once interrupted: `interruption.throwIfAborted()`.
 */
export function undoneOnInterrupt(undo: Undo): Undo {
  let run: Promise<void> | undefined;
  const once = () => (run ??= undo().finally(() => pending.delete(once)));
  pending.add(once);
  return once;
}

/** Every pending undo, and those registered while they run, until none is left. */
async function undoAll(): Promise<void> {
  for (let undos = [...pending]; undos.length > 0; undos = [...pending]) {
    await Promise.allSettled(undos.map((undo) => undo()));
  }
}

/**
 * On SIGINT, SIGTERM or SIGHUP: runs every pending undo, then exits as the signal would have
 * (128 plus its number). A second signal exits at once, undone or not.
 */
export function exitOnInterrupt(log: (line: string) => void = console.error): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      const code = 128 + constants.signals[signal];
      if (controller.signal.aborted) process.exit(code);
      controller.abort();
      log(`\n${signal}: stopping the bench's processes and dropping its databases`);
      void undoAll().then(() => process.exit(code));
    });
  }
}

/**
 * Runs the bench's `main`; once interrupted, its failures (a child that was stopped under it)
 * are the interrupt's doing, and the interrupt's handler exits.
 */
export async function runUnlessInterrupted(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
}
