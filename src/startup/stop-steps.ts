import type { Logger } from "pino";

/**
 * Runs the steps in order, each one even when a step before it failed, so a tracing collector
 * that is down never leaves the database open or the process exiting on an unhandled rejection.
 * Each failure is one warning line; resolves to the names that failed.
 */
export async function runStopSteps(
  steps: { name: string; run: () => Promise<void> | void }[],
  logger: Pick<Logger, "warn">,
): Promise<string[]> {
  const failed: string[] = [];
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      failed.push(step.name);
      logger.warn({ step: step.name, error: describeFailure(error) }, "shutdown step failed; stopping the rest");
    }
  }
  return failed;
}

/** A failure as one line for the log: its message (each one of an AggregateError), never a stack. */
function describeFailure(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeFailure).join("; ");
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
