import type { ServiceDeps } from "../core/deps.js";
import { hourFloor } from "../domain/metering.js";
import { meterResource, resourcesBehind } from "../store/ledger.js";
import { createIntervalJob, type IntervalJob, type JobOptions } from "./interval-job.js";

export type MeteringJobOptions = JobOptions<
  Pick<ServiceDeps, "db" | "now" | "logger" | "fundingChanges" | "webhookEvents">
>;

export interface MeteringReport {
  resources: number;
  chargedNanos: bigint;
}

export type MeteringJob = IntervalJob<MeteringReport>;

// Resources one query takes at most.
const BATCH = 500;
// A resource far behind is caught up a week at a time (one ledger entry per hour).
const MAX_PIECES_PER_RESOURCE = 7 * 24;

/**
 * Charges running resources their hourly price, up to the last whole hour, as USAGE entries in
 * their project's ledger (the seven-day spend behind funding's runway, spec 2.3). Several
 * replicas may run it at once: each resource is metered under its row lock.
 */
export function createMeteringJob(options: MeteringJobOptions): MeteringJob {
  const { deps } = options;
  const log = deps.logger.child({ job: "metering" });

  async function runOnce(): Promise<MeteringReport> {
    const until = new Date(hourFloor(deps.now().getTime()));
    const report: MeteringReport = { resources: 0, chargedNanos: 0n };
    // Every pass moves each resource it takes forward, so the work list shrinks to nothing.
    for (;;) {
      const ids = await resourcesBehind(deps.db, { until, take: BATCH });
      if (ids.length === 0) {
        // Usage lowers balances and raises the seven-day spend that funding answers.
        if (report.chargedNanos > 0n) await deps.fundingChanges?.announceAll();
        return report;
      }
      for (const resourceId of ids) {
        report.chargedNanos += await meterResource(deps.db, {
          resourceId,
          until,
          maxPieces: MAX_PIECES_PER_RESOURCE,
          // A campaign.runway_low event when the charge took the runway below its threshold.
          inTransaction: (tx, projectId) =>
            deps.webhookEvents?.checkRunway(tx, projectId, deps.now()) ?? Promise.resolve(),
        });
        report.resources += 1;
      }
    }
  }

  return createIntervalJob({ name: "metering", intervalMs: options.intervalMs, runOnce, logger: log });
}
