import type { Prisma } from "../../gen/prisma/client.js";
import { allowRedelivery } from "../domain/webhook-redelivery.js";
import type { DbClient } from "./db-client.js";
import type { Db } from "./open-database.js";

// Webhook deliveries: one event to one endpoint, as the API reads them, and redelivery. The
// delivery job's side (which to attempt, what an attempt came to) is webhook-delivery-attempts.ts.

const deliveryColumns = {
  omit: { leaseUntil: true },
  include: { event: { select: { type: true } } },
} satisfies Prisma.WebhookDeliveryDefaultArgs;

export type WebhookDeliveryRow = Prisma.WebhookDeliveryGetPayload<typeof deliveryColumns>;

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
    ...deliveryColumns,
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
    ...deliveryColumns,
  });
}

export type Redelivery =
  | { kind: "queued"; row: WebhookDeliveryRow }
  /** Already queued or in flight: left as it is, so it is never sent twice for one redelivery. */
  | { kind: "pending"; row: WebhookDeliveryRow }
  | { kind: "absent" }
  | { kind: "disabled" }
  /** The endpoint queued its `perHour` redeliveries this hour; the next fits at `nextAllowed`. */
  | { kind: "limited"; nextAllowed: Date };

/**
 * Queues a finished delivery again at once, its attempts starting over; only to an ACTIVE
 * endpoint, and at most `perHour` an endpoint (docs/webhooks.md "Fairness"). The endpoint's row
 * is locked first, so concurrent redeliveries of one endpoint are counted one after another.
 */
export function redeliverWebhook(
  db: Db,
  options: { accountId: string; endpointId: string; id: string; now: Date; perHour: number },
): Promise<Redelivery> {
  const { endpointId, id, now } = options;
  return db.$transaction(async (tx): Promise<Redelivery> => {
    const [endpoint] = await tx.$queryRaw<{ state: string; start: Date | null; count: number }[]>`
      SELECT state::text AS state, redeliver_window_start AS start, redeliver_count AS count FROM webhook_endpoints
       WHERE id = ${endpointId} AND account_id = ${options.accountId} FOR NO KEY UPDATE`;
    if (!endpoint) return { kind: "absent" };
    if (endpoint.state !== "ACTIVE") return { kind: "disabled" };
    const current = await findWebhookDelivery(tx, options);
    if (!current) return { kind: "absent" };
    if (current.state === "PENDING") return { kind: "pending", row: current };
    const window = { start: endpoint.start, count: Number(endpoint.count) };
    const allowance = allowRedelivery(window, { now, perHour: options.perHour });
    if (!allowance.allowed) return { kind: "limited", nextAllowed: allowance.nextAllowed };
    // Raw, so the count leaves the endpoint's update_time alone: it is not a change to the endpoint.
    await tx.$executeRaw`
      UPDATE webhook_endpoints
         SET redeliver_window_start = ${allowance.window.start}, redeliver_count = ${allowance.window.count}
       WHERE id = ${endpointId}`;
    await tx.webhookDelivery.updateMany({
      where: { id, endpointId },
      data: { state: "PENDING", attemptCount: 0, nextAttemptTime: now, leaseUntil: null },
    });
    const row = await findWebhookDelivery(tx, options);
    return row ? { kind: "queued", row } : { kind: "absent" };
  });
}
