import type { ServiceDeps } from "../core/deps.js";
import { leaseVerifications } from "../store/campaigns.js";
import { createIntervalJob, type IntervalJob, type JobOptions } from "./interval-job.js";
import { type VerifyResult, verifyCampaign } from "./verify-campaign.js";

export type VerificationJobOptions = JobOptions<
  Pick<ServiceDeps, "db" | "steam" | "masterKeys" | "now" | "logger" | "webhookEvents" | "fundingChanges">
>;

/** wake(): a pass now (after create or retry in this process); runOnce(): what each campaign due came to. */
export type VerificationJob = IntervalJob<VerifyResult[]>;

// How long one replica holds a campaign (a crashed replica's come back after it), and how many
// campaigns one pass leases.
const LEASE_MS = 60_000;
const BATCH = 20;

/**
 * Background verification of campaigns (spec 3.2). Each pass leases what is due with
 * FOR UPDATE SKIP LOCKED, so replicas share the work and never verify one campaign twice at
 * once. Campaigns left VERIFYING by a platform that did not answer come back next pass.
 */
export function createVerificationJob(options: VerificationJobOptions): VerificationJob {
  const { deps } = options;
  const log = deps.logger.child({ job: "verification" });

  async function runOnce(): Promise<VerifyResult[]> {
    const tasks = await leaseVerifications(deps.db, { now: deps.now(), leaseMs: LEASE_MS, limit: BATCH });
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

  return createIntervalJob({
    name: "verification",
    intervalMs: options.intervalMs,
    runOnce,
    logger: log,
    // A full batch may have left more waiting: take the next one at once.
    runAgain: (results) => results.length === BATCH,
  });
}
