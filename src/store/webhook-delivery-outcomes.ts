import type { Prisma } from "../../gen/prisma/client.js";
import type { Db } from "./open-database.js";
import type { DeliveryTask } from "./webhook-delivery-leases.js";

// What an attempt came to (docs/webhooks.md "Delivery"). An outcome is written only while the
// attempt's lease is still held, so a replica that stalled past its lease cannot overwrite the
// work of the one that took over. The endpoint's state moves with it in the same transaction:
// its failure run, its back-off (docs/webhooks.md "Fairness") and, at the end, its disabling.

export interface AttemptRecord {
  now: Date;
  statusCode: number;
  latencyMs: number;
  error: string;
  responseExcerpt: string;
}

/** A 2xx: the delivery SUCCEEDED; the endpoint's failure run and back-off end. Whether it was written. */
export function recordDeliverySuccess(db: Db, task: DeliveryTask, attempt: AttemptRecord): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const written = await tx.webhookDelivery.updateMany({
      where: { id: task.id, state: "PENDING", leaseUntil: task.leaseUntil },
      data: {
        ...attemptColumns(attempt),
        state: "SUCCEEDED",
        attemptCount: { increment: 1 },
        nextAttemptTime: null,
        leaseUntil: null,
      },
    });
    if (written.count === 0) return false;
    await tx.webhookEndpoint.updateMany({
      where: { id: task.endpointId, failingSince: { not: null } },
      data: { failingSince: null, backoffUntil: null, backoffLevel: 0 },
    });
    return true;
  });
}

export type FailureOutcome = "retrying" | "gaveUp" | "endpointDisabled" | "lostLease";

export interface FailureRecord extends AttemptRecord {
  /** The delivery's next attempt; undefined: given up (FAILED). */
  nextAttemptTime: Date | undefined;
  /** When the endpoint, at this back-off level, may be attempted again. */
  endpointBackoffUntil: (level: number) => Date;
  disableAfterMs: number;
  disabledReason: string;
}

/**
 * A failed attempt: tried again at `nextAttemptTime`, or FAILED when it is undefined (given up).
 * The endpoint's failure run starts at its first failure since a success; once it is older than
 * `disableAfterMs` the endpoint is DISABLED with `disabledReason`, and its pending deliveries fail.
 */
export function recordDeliveryFailure(db: Db, task: DeliveryTask, attempt: FailureRecord): Promise<FailureOutcome> {
  return db.$transaction(async (tx): Promise<FailureOutcome> => {
    const written = await tx.webhookDelivery.updateMany({
      where: { id: task.id, state: "PENDING", leaseUntil: task.leaseUntil },
      data: {
        ...attemptColumns(attempt),
        attemptCount: { increment: 1 },
        leaseUntil: null,
        ...(attempt.nextAttemptTime === undefined
          ? { state: "FAILED", nextAttemptTime: null }
          : { nextAttemptTime: attempt.nextAttemptTime }),
      },
    });
    if (written.count === 0) return "lostLease";
    await tx.webhookEndpoint.updateMany({
      where: { id: task.endpointId, failingSince: null },
      data: { failingSince: attempt.now },
    });
    await backOffEndpoint(tx, task.endpointId, attempt);
    const disableBefore = new Date(attempt.now.getTime() - attempt.disableAfterMs);
    const disabled = await tx.webhookEndpoint.updateMany({
      where: { id: task.endpointId, state: "ACTIVE", failingSince: { lte: disableBefore } },
      data: {
        state: "DISABLED",
        disabledReason: attempt.disabledReason,
        disableTime: attempt.now,
        version: { increment: 1 },
        updateTime: attempt.now,
      },
    });
    if (disabled.count === 1) {
      await tx.webhookDelivery.updateMany({
        where: { endpointId: task.endpointId, state: "PENDING" },
        data: { state: "FAILED", nextAttemptTime: null, leaseUntil: null },
      });
      return "endpointDisabled";
    }
    return attempt.nextAttemptTime === undefined ? "gaveUp" : "retrying";
  });
}

/**
 * The endpoint waits as a whole (docs/webhooks.md "Fairness"). Attempts that were in flight
 * together and fail during one wait raise its level once: the wait doubles per failed probe,
 * not per delivery that happened to be in flight.
 */
async function backOffEndpoint(tx: Prisma.TransactionClient, endpointId: string, attempt: FailureRecord) {
  const raised = await tx.$queryRaw<{ backoff_level: number }[]>`
    UPDATE webhook_endpoints SET backoff_level = backoff_level + 1
     WHERE id = ${endpointId} AND (backoff_until IS NULL OR backoff_until <= ${attempt.now})
    RETURNING backoff_level`;
  const level = raised[0]?.backoff_level;
  if (level === undefined) return;
  await tx.$executeRaw`
    UPDATE webhook_endpoints SET backoff_until = ${attempt.endpointBackoffUntil(Number(level))}
     WHERE id = ${endpointId}`;
}

function attemptColumns(attempt: AttemptRecord) {
  return {
    lastAttemptTime: attempt.now,
    lastStatusCode: attempt.statusCode,
    lastLatencyMs: attempt.latencyMs,
    lastError: attempt.error,
    responseExcerpt: attempt.responseExcerpt,
  };
}
