/** One thing the service closes when it stops (the listener, a job, the tracing exporter...). */
export interface StopStep {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * Runs the steps in order, each one even when a step before it failed, so a tracing collector
 * that is down never leaves the database open or the process exiting on an unhandled rejection.
 * Each failure is handed to `onFailure` once; resolves to the names that failed.
 */
export async function runStopSteps(
  steps: StopStep[],
  onFailure: (step: string, error: unknown) => void,
): Promise<string[]> {
  const failed: string[] = [];
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      failed.push(step.name);
      onFailure(step.name, error);
    }
  }
  return failed;
}

/** A failure as one line for the log: its message (each one of an AggregateError), never a stack. */
export function describeFailure(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeFailure).join("; ");
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
