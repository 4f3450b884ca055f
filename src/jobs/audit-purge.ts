import { purgeAuditEvents } from "../store/audit-events.js";
import { createRetentionPurge, type RetentionPurge, type RetentionPurgeOptions } from "./retention-purge.js";

/**
 * The audit log is kept AUDIT_RETENTION_DAYS, then deleted by this job, the only
 * writer allowed to delete from it (store/audit-events.ts). Idempotent: replicas running it at
 * once each delete what is left.
 */
export function createAuditPurge(options: RetentionPurgeOptions): RetentionPurge {
  // Rows per delete; a full batch means more are due, and the next run starts at once.
  return createRetentionPurge(
    { name: "audit-purge", rows: "audit events", defaultBatch: 5_000, purge: purgeAuditEvents },
    options,
  );
}
