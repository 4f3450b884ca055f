import { leaseWebhookDeliveries } from "../store/webhook-delivery-attempts.js";
import { createIntervalJob, type IntervalJob, type JobOptions } from "./interval-job.js";
import { createLeasePool } from "./lease-pool.js";
import { type AttemptResult, createDeliveryAttempt, type DeliveryAttemptOptions } from "./webhook-attempt.js";

export type { AttemptResult } from "./webhook-attempt.js";

export interface WebhookDeliveryJobOptions extends JobOptions<DeliveryAttemptOptions["deps"]> {
  /** The jitter's source, in [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
}

/**
 * runOnce(): attempts what is due now, refilling each freed slot, until nothing more can be
 * leased; what each attempt came to. Tests run it on a clock of their own; the service runs start().
 */
export type WebhookDeliveryJob = IntervalJob<AttemptResult[]>;

/**
 * Delivers webhook events (docs/webhooks.md "Delivery" and "Fairness"): a pool of
 * WEBHOOK_DELIVERY_CONCURRENCY attempts at once on this replica, each started as soon as a slot
 * is free and a delivery is due, so no attempt waits for another. Deliveries are leased with
 * FOR UPDATE SKIP LOCKED under the caps per endpoint and per account that hold across replicas
 * (store/webhook-delivery-attempts.ts); a lease outlasts an attempt's timeout, so under normal
 * running each event reaches each endpoint once. A replica that dies mid-attempt leaves its
 * lease to expire and the delivery is attempted again: at least once, the event id telling
 * receivers it is the same.
 */
export function createWebhookDeliveryJob(options: WebhookDeliveryJobOptions): WebhookDeliveryJob {
  const { deps } = options;
  const config = deps.config.webhooks;
  const leaseMs = 2 * config.timeoutMs + 30_000;
  const pool = createLeasePool({
    size: config.concurrency.replica,
    lease: (count) =>
      leaseWebhookDeliveries(deps.db, {
        now: deps.now(),
        leaseMs,
        limit: count,
        endpointConcurrency: config.concurrency.endpoint,
        accountConcurrency: config.concurrency.account,
      }),
    run: createDeliveryAttempt({ deps, random: options.random ?? Math.random }),
  });

  // The service's loop: fills the free slots, again as soon as one of its attempts finishes,
  // and every intervalMs when nothing was due.
  const loop = createIntervalJob({
    name: "webhook-delivery",
    intervalMs: options.intervalMs,
    logger: deps.logger.child({ job: "webhook-delivery" }),
    runOnce: async () => {
      const started = await pool.fill();
      for (const run of started) void run.then(() => loop.wake());
      return started.length;
    },
  });

  return {
    ...loop,
    async stop() {
      await loop.stop();
      await pool.settled();
    },
    runOnce: pool.drain,
  };
}
