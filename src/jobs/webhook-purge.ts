import { purgeWebhookEvents } from "../store/webhook-retention.js";
import { createRetentionPurge, type RetentionPurge, type RetentionPurgeOptions } from "./retention-purge.js";

/**
 * Keeps the webhook outbox from growing without end: events whose deliveries are all finished
 * are deleted with them WEBHOOK_RETENTION_DAYS after they were created (store/webhook-retention.ts).
 * Safe with several replicas: each run takes its events with SKIP LOCKED.
 */
export function createWebhookPurge(options: RetentionPurgeOptions): RetentionPurge {
  // Events per delete (each with its deliveries); a full batch means more are due.
  return createRetentionPurge(
    { name: "webhook-purge", rows: "webhook events", defaultBatch: 1_000, purge: purgeWebhookEvents },
    options,
  );
}
