import type { ServiceDeps } from "../core/deps.js";
import { openSecret } from "../core/secret-box.js";
import { endpointBackoffMs, nextRetryDelayMs } from "../domain/webhook-retry.js";
import type { DeliveryTask } from "../store/webhook-delivery-attempts.js";
import {
  type FailureOutcome,
  recordDeliveryFailure,
  recordDeliverySuccess,
} from "../store/webhook-delivery-attempts.js";
import { sendDelivery } from "./webhook-send.js";

// One attempt of one leased delivery (docs/webhooks.md "Delivery"): sign with the endpoint's
// secrets, send, and record the outcome while the lease is still held. A failure is retried
// with backoff and backs the whole endpoint off (docs/webhooks.md "Fairness").

export type AttemptResult = "succeeded" | FailureOutcome;

export interface DeliveryAttemptOptions {
  deps: Pick<ServiceDeps, "db" | "masterKeys" | "now" | "logger" | "config">;
  /** The jitter's source, in [0, 1). */
  random: () => number;
}

/** What an attempt came to; it never rejects (a fault of ours leaves the lease to run out). */
export function createDeliveryAttempt(options: DeliveryAttemptOptions): (task: DeliveryTask) => Promise<AttemptResult> {
  const { deps, random } = options;
  const config = deps.config.webhooks;
  const log = deps.logger.child({ job: "webhook-delivery" });

  async function attempt(task: DeliveryTask): Promise<AttemptResult> {
    const now = deps.now();
    const secrets = [openSecret(deps.masterKeys, task.secretEncrypted)];
    if (task.previousSecretEncrypted && task.previousSecretExpireTime && task.previousSecretExpireTime > now) {
      secrets.push(openSecret(deps.masterKeys, task.previousSecretEncrypted));
    }
    const outcome = await sendDelivery({ task, secrets, now, config });
    const record = { now: deps.now(), ...outcome };
    if (outcome.statusCode >= 200 && outcome.statusCode < 300) {
      const written = await recordDeliverySuccess(deps.db, task, record);
      return written ? "succeeded" : "lostLease";
    }
    const delay = nextRetryDelayMs(config.retry, task.attemptCount + 1, random());
    const result = await recordDeliveryFailure(deps.db, task, {
      ...record,
      nextAttemptTime: delay === undefined ? undefined : new Date(record.now.getTime() + delay),
      endpointBackoffUntil: (level) =>
        new Date(record.now.getTime() + endpointBackoffMs(config.retry, level, random())),
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

  return async (task) => {
    try {
      return await attempt(task);
    } catch (error) {
      // The lease brings it back once it expires; the others go on.
      log.error({ err: error, deliveryId: task.id }, "webhook delivery attempt failed");
      return "lostLease";
    }
  };
}

function describeMs(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 24 ? `${Math.round(hours / 24)} days` : hours >= 1 ? `${Math.round(hours)} hours` : `${ms} ms`;
}
