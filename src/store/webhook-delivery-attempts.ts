import { Prisma, type WebhookDelivery, type WebhookEndpoint } from "../../gen/prisma/client.js";
import { leaseFree, leaseHeld, takeDueLeases } from "./leases.js";
import type { Db } from "./open-database.js";

// The webhook delivery job's side of the store. Which due deliveries a replica attempts next (docs/webhooks.md "Delivery" and
// "Fairness"). A lease marks a delivery in flight until it runs out; it outlasts an attempt, so
// under normal running each event reaches each endpoint once. The unexpired leases are also the
// count of attempts in flight, and the caps on them hold across replicas because every replica
// leases under one transaction-scoped advisory lock: each lease statement sees the leases the
// others committed. The statement takes milliseconds; the attempts run outside it.

// pg_advisory_xact_lock key of the webhook lease (migrate.ts holds another).
const LEASE_LOCK_KEY = 7_214_003_922n;

/** A leased delivery with what an attempt needs. */
export interface DeliveryTask
  extends Pick<WebhookDelivery, "id" | "eventId" | "endpointId" | "attemptCount">,
    Pick<
      WebhookEndpoint,
      "accountId" | "url" | "secretEncrypted" | "previousSecretEncrypted" | "previousSecretExpireTime"
    > {
  payload: string;
  /** The lease this replica holds: the outcome is written only while it still holds it. */
  leaseUntil: Date;
}

export interface LeaseOptions {
  now: Date;
  leaseMs: number;
  /** Deliveries leased at most (this replica's free attempt slots). */
  limit: number;
  /** Attempts one endpoint may have in flight on every replica together (1 while it is failing). */
  endpointConcurrency: number;
  /** Attempts one account's endpoints may have in flight on every replica together. */
  accountConcurrency: number;
}

type LeasedRow = Pick<DeliveryTask, "id" | "eventId" | "endpointId" | "attemptCount">;

/**
 * Leases up to `limit` due deliveries (leases.ts, "delivery"). Only ACTIVE endpoints that are not
 * backing off are served, each up to its room under `endpointConcurrency` (one attempt at a time
 * while it is failing: a probe), and each account up to `accountConcurrency`. Between accounts
 * the order is round-robin weighted by what each already has in flight: an account's n-th
 * attempt in flight comes after every other account's (n-1)-th, so a backlog of one account
 * never sits in front of another's new event; within an account, oldest due first.
 */
export async function leaseWebhookDeliveries(db: Db, options: LeaseOptions): Promise<DeliveryTask[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const { now } = options;
  const leased = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEASE_LOCK_KEY}::bigint)`;
    return takeDueLeases<LeasedRow>(tx, "delivery", {
      now,
      until: leaseUntil,
      with: Prisma.sql`held AS (
        SELECT endpoint_id, count(*)::int AS attempts FROM webhook_deliveries
         WHERE ${leaseHeld("delivery", now)} AND state = 'PENDING'
         GROUP BY endpoint_id
      ), open_endpoints AS (
        SELECT e.id, e.account_id,
               (CASE WHEN e.failing_since IS NULL THEN ${options.endpointConcurrency}::int ELSE 1 END)
                 - COALESCE(h.attempts, 0) AS room
          FROM webhook_endpoints e LEFT JOIN held h ON h.endpoint_id = e.id
         WHERE e.state = 'ACTIVE' AND (e.backoff_until IS NULL OR e.backoff_until <= ${now})
      ), account_held AS (
        SELECT e.account_id, sum(h.attempts)::int AS attempts
          FROM held h JOIN webhook_endpoints e ON e.id = h.endpoint_id
         GROUP BY e.account_id
      ), due AS (
        SELECT d.id, d.next_attempt_time, o.account_id,
               row_number() OVER (PARTITION BY o.account_id ORDER BY d.next_attempt_time, d.id) AS turn
          FROM open_endpoints o
          CROSS JOIN LATERAL (
            SELECT id, next_attempt_time FROM webhook_deliveries
             WHERE endpoint_id = o.id AND state = 'PENDING' AND next_attempt_time <= ${now}
               AND ${leaseFree("delivery", now)}
             ORDER BY next_attempt_time, id
             LIMIT o.room) d
         WHERE o.room > 0
      ), chosen AS (
        SELECT due.id FROM due LEFT JOIN account_held a ON a.account_id = due.account_id
         WHERE COALESCE(a.attempts, 0) + due.turn <= ${options.accountConcurrency}::int
         ORDER BY COALESCE(a.attempts, 0) + due.turn, due.next_attempt_time, due.id
         LIMIT ${options.limit}::int
      )`,
      due: Prisma.sql`id IN (SELECT id FROM chosen) AND state = 'PENDING'`,
      returning: Prisma.sql`id, event_id AS "eventId", endpoint_id AS "endpointId", attempt_count AS "attemptCount"`,
    });
  });
  if (leased.length === 0) return [];
  return withEndpointsAndEvents(db, leased, leaseUntil);
}

async function withEndpointsAndEvents(db: Db, leased: LeasedRow[], leaseUntil: Date): Promise<DeliveryTask[]> {
  const [events, endpoints] = await Promise.all([
    db.webhookEvent.findMany({
      where: { id: { in: leased.map((row) => row.eventId) } },
      select: { id: true, payload: true },
    }),
    db.webhookEndpoint.findMany({
      where: { id: { in: leased.map((row) => row.endpointId) }, state: "ACTIVE" },
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
    const payload = payloads.get(row.eventId);
    const endpoint = byId.get(row.endpointId);
    // A disabled endpoint's deliveries were failed with it; one disabled since is left to lapse.
    if (payload === undefined || endpoint === undefined) return [];
    const { id: _id, ...fields } = endpoint;
    return [{ ...row, ...fields, payload, attemptCount: Number(row.attemptCount), leaseUntil }];
  });
}

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
