import type { DbClient } from "./db-client.js";
import type { Db } from "./open-database.js";

// Webhook deliveries (issue 16): one event to one endpoint. Several replicas lease due
// deliveries with FOR UPDATE SKIP LOCKED, so each attempt is made by one of them; an attempt's
// outcome is written only while its lease is still held, so a replica that stalled past its
// lease cannot overwrite the work of the one that took over.

export type WebhookDeliveryState = "PENDING" | "SUCCEEDED" | "FAILED";

export interface WebhookDeliveryRow {
  id: string;
  eventId: string;
  endpointId: string;
  state: WebhookDeliveryState;
  attemptCount: number;
  nextAttemptTime: Date | null;
  lastAttemptTime: Date | null;
  lastStatusCode: number;
  lastLatencyMs: number;
  lastError: string;
  responseExcerpt: string;
  createTime: Date;
  event: { type: string };
}

const deliveryColumns = {
  id: true,
  eventId: true,
  endpointId: true,
  state: true,
  attemptCount: true,
  nextAttemptTime: true,
  lastAttemptTime: true,
  lastStatusCode: true,
  lastLatencyMs: true,
  lastError: true,
  responseExcerpt: true,
  createTime: true,
  event: { select: { type: true } },
} as const;

/** The endpoint's deliveries, newest first (ids sort in creation order). */
export function listWebhookDeliveries(
  db: DbClient,
  options: { accountId: string; endpointId: string; take: number; before: string | undefined },
): Promise<WebhookDeliveryRow[]> {
  return db.webhookDelivery.findMany({
    where: {
      endpointId: options.endpointId,
      endpoint: { accountId: options.accountId },
      ...(options.before === undefined ? {} : { id: { lt: options.before } }),
    },
    select: deliveryColumns,
    orderBy: { id: "desc" },
    take: options.take,
  });
}

export function findWebhookDelivery(
  db: DbClient,
  options: { accountId: string; endpointId: string; id: string },
): Promise<WebhookDeliveryRow | null> {
  return db.webhookDelivery.findFirst({
    where: { id: options.id, endpointId: options.endpointId, endpoint: { accountId: options.accountId } },
    select: deliveryColumns,
  });
}

export type Redelivery = { kind: "queued"; row: WebhookDeliveryRow } | { kind: "absent" } | { kind: "disabled" };

/** Queues the delivery again at once, its attempts starting over; only to an ACTIVE endpoint. */
export async function redeliverWebhook(
  db: DbClient,
  options: { accountId: string; endpointId: string; id: string; now: Date },
): Promise<Redelivery> {
  const endpoint = await db.webhookEndpoint.findFirst({
    where: { id: options.endpointId, accountId: options.accountId },
    select: { state: true },
  });
  if (!endpoint) return { kind: "absent" };
  if (endpoint.state !== "ACTIVE") return { kind: "disabled" };
  const written = await db.webhookDelivery.updateMany({
    where: { id: options.id, endpointId: options.endpointId },
    data: { state: "PENDING", attemptCount: 0, nextAttemptTime: options.now, leaseUntil: null },
  });
  if (written.count === 0) return { kind: "absent" };
  const row = await findWebhookDelivery(db, options);
  return row ? { kind: "queued", row } : { kind: "absent" };
}

/** A leased delivery with what an attempt needs. */
export interface DeliveryTask {
  id: string;
  eventId: string;
  endpointId: string;
  accountId: string;
  url: string;
  payload: string;
  secretEncrypted: Uint8Array;
  previousSecretEncrypted: Uint8Array | null;
  previousSecretExpireTime: Date | null;
  attemptCount: number;
  /** The lease this replica holds: the outcome is written only while it still holds it. */
  leaseUntil: Date;
}

interface LeasedRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempt_count: number;
}

export async function leaseWebhookDeliveries(
  db: Db,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<DeliveryTask[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const leased = await db.$queryRaw<LeasedRow[]>`
    UPDATE webhook_deliveries SET lease_until = ${leaseUntil}
     WHERE id IN (
       SELECT id FROM webhook_deliveries
        WHERE state = 'PENDING' AND next_attempt_time <= ${options.now}
          AND (lease_until IS NULL OR lease_until < ${options.now})
        ORDER BY next_attempt_time, id
        LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, event_id, endpoint_id, attempt_count`;
  if (leased.length === 0) return [];
  const [events, endpoints] = await Promise.all([
    db.webhookEvent.findMany({
      where: { id: { in: leased.map((row) => row.event_id) } },
      select: { id: true, payload: true },
    }),
    db.webhookEndpoint.findMany({
      where: { id: { in: leased.map((row) => row.endpoint_id) }, state: "ACTIVE" },
      select: {
        id: true,
        accountId: true,
        url: true,
        secretEncrypted: true,
        previousSecretEncrypted: true,
        previousSecretExpireTime: true,
      },
    }),
  ]);
  const payloads = new Map(events.map((event) => [event.id, event.payload]));
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  return leased.flatMap((row) => {
    const payload = payloads.get(row.event_id);
    const endpoint = byId.get(row.endpoint_id);
    // A disabled endpoint's deliveries were failed with it; one disabled since is left to lapse.
    if (payload === undefined || endpoint === undefined) return [];
    return [
      {
        id: row.id,
        eventId: row.event_id,
        endpointId: row.endpoint_id,
        accountId: endpoint.accountId,
        url: endpoint.url,
        payload,
        secretEncrypted: endpoint.secretEncrypted,
        previousSecretEncrypted: endpoint.previousSecretEncrypted,
        previousSecretExpireTime: endpoint.previousSecretExpireTime,
        attemptCount: Number(row.attempt_count),
        leaseUntil,
      },
    ];
  });
}

export interface AttemptRecord {
  now: Date;
  statusCode: number;
  latencyMs: number;
  error: string;
  responseExcerpt: string;
}

/** A 2xx: the delivery SUCCEEDED and the endpoint's failure run ends. Whether it was written. */
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
      data: { failingSince: null },
    });
    return true;
  });
}

export type FailureOutcome = "retrying" | "gaveUp" | "endpointDisabled" | "lostLease";

/**
 * A failed attempt: tried again at `nextAttemptTime`, or FAILED when it is undefined (given up).
 * The endpoint's failure run starts at its first failure since a success; once it is older than
 * `disableAfterMs` the endpoint is DISABLED with `disabledReason`, and its pending deliveries fail.
 */
export function recordDeliveryFailure(
  db: Db,
  task: DeliveryTask,
  attempt: AttemptRecord & { nextAttemptTime: Date | undefined; disableAfterMs: number; disabledReason: string },
): Promise<FailureOutcome> {
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

function attemptColumns(attempt: AttemptRecord) {
  return {
    lastAttemptTime: attempt.now,
    lastStatusCode: attempt.statusCode,
    lastLatencyMs: attempt.latencyMs,
    lastError: attempt.error,
    responseExcerpt: attempt.responseExcerpt,
  };
}
