import type { Db } from "./open-database.js";

// Webhook outbox retention: an event is kept while any of its deliveries
// may still be attempted, and for WEBHOOK_RETENTION_DAYS after it was created; then the event
// and its delivery rows (ON DELETE CASCADE) go. Deliveries still PENDING (queued or between
// retries) keep their event whatever its age.

/**
 * Deletes at most `limit` events created before `cutoff` whose deliveries are all finished
 * (SUCCEEDED or FAILED), oldest first; returns how many went. Replicas may run it at once:
 * candidates are taken with SKIP LOCKED, so two runs never pick the same event. A redelivery
 * (store/webhook-deliveries.ts) may set a finished delivery back to PENDING meanwhile, so the
 * candidates' deliveries are locked and read again before the delete, and an event found with
 * a PENDING one is kept.
 */
export async function purgeWebhookEvents(db: Db, options: { cutoff: Date; limit: number }): Promise<number> {
  return db.$transaction(async (tx) => {
    const candidates = await tx.$queryRaw<{ id: string }[]>`
      SELECT e.id FROM webhook_events e
       WHERE e.create_time < ${options.cutoff}
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'PENDING')
       ORDER BY e.create_time
       LIMIT ${options.limit}
       FOR UPDATE OF e SKIP LOCKED`;
    if (candidates.length === 0) return 0;
    const ids = candidates.map((row) => row.id);
    // Locking every delivery of the candidates waits out a redelivery in flight and returns the
    // rows as it left them (READ COMMITTED reads a locked row again once it is free).
    const deliveries = await tx.$queryRaw<{ event_id: string; state: string }[]>`
      SELECT event_id, state::text AS state FROM webhook_deliveries
       WHERE event_id = ANY(${ids}) ORDER BY id FOR UPDATE`;
    const pending = new Set(deliveries.filter((row) => row.state === "PENDING").map((row) => row.event_id));
    const finished = ids.filter((id) => !pending.has(id));
    if (finished.length === 0) return 0;
    return tx.$executeRaw`DELETE FROM webhook_events WHERE id = ANY(${finished})`;
  });
}
