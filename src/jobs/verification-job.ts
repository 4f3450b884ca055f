import type { ServiceDeps } from "../core/deps.js";
import { leaseVerifications } from "../store/verification-leases.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";
import { type VerifyResult, verifyCampaign } from "./verify-campaign.js";

export interface VerificationJobOptions {
  deps: Pick<ServiceDeps, "db" | "steam" | "masterKeys" | "now" | "logger" | "webhookEvents" | "fundingChanges">;
  /** Time between passes over campaigns in VERIFYING. */
  intervalMs: number;
  /** How long one replica holds a campaign; a crashed replica's campaigns come back after it. */
  leaseMs?: number;
  /** Campaigns leased at a time. */
  batchSize?: number;
}

export type VerificationJob = Job & {
  /** Runs a pass now (after create or retry in this process), or right after the running one. */
  wake(): void;
  /** One pass over every campaign due; what each came to. */
  runOnce(): Promise<VerifyResult[]>;
};

const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_BATCH = 20;

/**
 * Background verification of campaigns (spec 3.2). Each pass leases what is due with
 * FOR UPDATE SKIP LOCKED, so replicas share the work and never verify one campaign twice at
 * once. Campaigns left VERIFYING by a platform that did not answer come back next pass.
 */
export function createVerificationJob(options: VerificationJobOptions): VerificationJob {
  const { deps } = options;
  const log = deps.logger.child({ job: "verification" });
  const limit = options.batchSize ?? DEFAULT_BATCH;

  async function runOnce(): Promise<VerifyResult[]> {
    const tasks = await leaseVerifications(deps.db, {
      now: deps.now(),
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      limit,
    });
    const results: VerifyResult[] = [];
    for (const task of tasks) results.push(await verifyOne(task));
    // A verified or refused campaign answers funding and offers differently.
    if (results.some((result) => result === "VERIFIED" || result === "NEEDS_REVIEW"))
      await deps.fundingChanges?.announceAll();
    return results;
  }

  async function verifyOne(task: Parameters<typeof verifyCampaign>[1]): Promise<VerifyResult> {
    try {
      const result = await verifyCampaign(deps, task);
      log.info({ campaignId: task.campaignId, result }, "campaign verification");
      return result;
    } catch (error) {
      // Its lease brings it back once it expires; the others go on.
      log.error({ err: error, campaignId: task.campaignId }, "campaign verification failed");
      return "POSTPONED";
    }
  }

  const job = createIntervalJob({
    name: "verification",
    intervalMs: options.intervalMs,
    runOnce,
    logger: log,
    // A full batch may have left more waiting: take the next one at once.
    runAgain: (results) => results.length === limit,
  });
  return { name: job.name, start: job.start, stop: job.stop, wake: job.wake, runOnce };
}
