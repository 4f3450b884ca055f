import { performance } from "node:perf_hooks";
import { nextRetryDelayMs } from "../domain/webhook-retry.js";
import type { ServiceDeps } from "../services/deps.js";
import { openSecret } from "../services/secret-box.js";
import {
  type DeliveryTask,
  type FailureOutcome,
  leaseWebhookDeliveries,
  recordDeliveryFailure,
  recordDeliverySuccess,
} from "../store/webhook-deliveries.js";
import { resolveWebhookTarget, WebhookUrlRefused } from "../usecases/webhooks/address-guard.js";
import { type PostOutcome, postWebhook } from "../usecases/webhooks/post-webhook.js";
import { SIGNATURE_HEADER, signatureHeader } from "../usecases/webhooks/signature.js";
import { createIntervalJob } from "./interval-job.js";
import type { Job } from "./job.js";

export interface WebhookDeliveryJobOptions {
  deps: Pick<ServiceDeps, "db" | "masterKeys" | "now" | "logger" | "config">;
  /** Time between passes when nothing is due. */
  intervalMs: number;
  /** Deliveries leased at a time (and attempted together). */
  batchSize?: number;
  /** The jitter's source, in [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
}

export type AttemptResult = "succeeded" | FailureOutcome;

export type WebhookDeliveryJob = Job & {
  wake(): void;
  /** One pass over the deliveries due now; what each attempt came to. */
  runOnce(): Promise<AttemptResult[]>;
};

const DEFAULT_BATCH = 16;

/**
 * Delivers webhook events (issue 16). Each pass leases the due deliveries with FOR UPDATE SKIP
 * LOCKED (store/webhook-deliveries.ts), so replicas share the work and none attempts a delivery
 * another holds; the lease outlasts an attempt's timeout, so under normal running each event
 * reaches each endpoint once. A replica that dies mid-attempt leaves its lease to expire and the
 * delivery is attempted again: at least once, the event id telling receivers it is the same.
 */
export function createWebhookDeliveryJob(options: WebhookDeliveryJobOptions): WebhookDeliveryJob {
  const { deps } = options;
  const config = deps.config.webhooks;
  const log = deps.logger.child({ job: "webhook-delivery" });
  const limit = options.batchSize ?? DEFAULT_BATCH;
  const random = options.random ?? Math.random;
  const leaseMs = 2 * config.timeoutMs + 30_000;

  async function runOnce(): Promise<AttemptResult[]> {
    const tasks = await leaseWebhookDeliveries(deps.db, { now: deps.now(), leaseMs, limit });
    return Promise.all(tasks.map((task) => attemptOne(task)));
  }

  async function attemptOne(task: DeliveryTask): Promise<AttemptResult> {
    try {
      return await attempt(task);
    } catch (error) {
      // The lease brings it back once it expires; the others go on.
      log.error({ err: error, deliveryId: task.id }, "webhook delivery attempt failed");
      return "lostLease";
    }
  }

  async function attempt(task: DeliveryTask): Promise<AttemptResult> {
    const now = deps.now();
    const secrets = [openSecret(deps.masterKeys, task.secretEncrypted)];
    if (task.previousSecretEncrypted && task.previousSecretExpireTime && task.previousSecretExpireTime > now) {
      secrets.push(openSecret(deps.masterKeys, task.previousSecretEncrypted));
    }
    const outcome = await send(task, secrets, now);
    const record = { now: deps.now(), ...outcome };
    if (outcome.statusCode >= 200 && outcome.statusCode < 300) {
      const written = await recordDeliverySuccess(deps.db, task, record);
      return written ? "succeeded" : "lostLease";
    }
    const delay = nextRetryDelayMs(config.retry, task.attemptCount + 1, random());
    const result = await recordDeliveryFailure(deps.db, task, {
      ...record,
      nextAttemptTime: delay === undefined ? undefined : new Date(record.now.getTime() + delay),
      disableAfterMs: config.disableAfterMs,
      disabledReason: `Every delivery failed since the endpoint's first failure over ${describeMs(config.disableAfterMs)}; the last: ${outcome.error || `HTTP ${outcome.statusCode}`}.`,
    });
    if (result === "endpointDisabled") {
      log.warn(
        { accountId: task.accountId, endpointId: task.endpointId, deliveryId: task.id },
        "webhook endpoint disabled: every delivery failed for too long",
      );
    }
    return result;
  }

  async function send(task: DeliveryTask, secrets: string[], now: Date): Promise<PostOutcome> {
    let target: Awaited<ReturnType<typeof resolveWebhookTarget>>;
    try {
      // Resolved and checked again at every attempt: the host's addresses may have changed
      // since the endpoint was created (DNS rebinding); the POST goes to the address checked.
      target = await resolveWebhookTarget(task.url, config);
    } catch (error) {
      if (!(error instanceof WebhookUrlRefused)) throw error;
      return { statusCode: 0, latencyMs: 0, error: `URL refused: it ${error.message}`, responseExcerpt: "" };
    }
    const timestamp = Math.floor(now.getTime() / 1000);
    return postWebhook(target, {
      body: task.payload,
      headers: {
        [SIGNATURE_HEADER]: signatureHeader(secrets, timestamp, task.payload),
        "Encore-Event-Id": task.eventId,
      },
      timeoutMs: config.timeoutMs,
      clock: () => performance.now(),
    });
  }

  const job = createIntervalJob({
    name: "webhook-delivery",
    intervalMs: options.intervalMs,
    runOnce,
    logger: log,
    runAgain: (results) => results.length === limit,
  });
  return { name: job.name, start: job.start, stop: job.stop, wake: job.wake, runOnce };
}

function describeMs(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 24 ? `${Math.round(hours / 24)} days` : hours >= 1 ? `${Math.round(hours)} hours` : `${ms} ms`;
}
