import type { Prisma } from "../../gen/prisma/client.js";

// The transactional outbox of webhook events. An event is written by the caller's
// transaction, the one that makes the change it tells of, so it exists exactly when the change
// committed; its deliveries, one per ACTIVE endpoint of the account subscribed to its type, are
// fanned out in the same transaction, so the delivery job only ever reads committed work.

export interface OutboxEvent {
  id: string;
  accountId: string;
  type: string;
  /** The envelope as it will be POSTed and signed, byte for byte. */
  payload: string;
  now: Date;
}

/**
 * Writes the event and its deliveries; returns how many endpoints will receive it. An account
 * with no endpoint subscribed to the type gets no row at all: nobody could ever read it.
 */
export async function insertWebhookEvent(tx: Prisma.TransactionClient, event: OutboxEvent): Promise<number> {
  const subscribed = await tx.webhookEndpoint.count({
    where: { accountId: event.accountId, state: "ACTIVE", eventTypes: { has: event.type } },
  });
  if (subscribed === 0) return 0;
  await tx.webhookEvent.create({
    data: { id: event.id, accountId: event.accountId, type: event.type, payload: event.payload, createTime: event.now },
  });
  // Delivery ids sort in creation order like every other id (core/ids.ts): 12 hex digits of
  // the time in ms, then 16 random ones.
  const timeHex = event.now.getTime().toString(16).padStart(12, "0");
  return tx.$executeRaw`
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, state, next_attempt_time, create_time)
    SELECT ${timeHex} || substr(md5(random()::text || e.id), 1, 16), ${event.id}, e.id, 'PENDING',
           ${event.now}, ${event.now}
      FROM webhook_endpoints e
     WHERE e.account_id = ${event.accountId} AND e.state = 'ACTIVE' AND ${event.type} = ANY(e.event_types)`;
}
