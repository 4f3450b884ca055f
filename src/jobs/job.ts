/** Background work the service runs beside its listener (sweeper, verification, mover, metering). */
export interface Job {
  name: string;
  start(): void;
  /** Stops scheduling and waits for a run in progress to finish. */
  stop(): Promise<void>;
}
