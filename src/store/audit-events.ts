import { type AuditEvent, Prisma } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import { cursorText, type KeysetPageRequest } from "./keyset-page.js";
import type { Db } from "./open-database.js";

// The audit log (docs/audit-log.md). Append-only: this module inserts, lists, raises a failed
// authentication's count (countFailedAuthentication), and deletes only through the retention
// purge, the one DELETE the table's trigger lets through (migration 20261125010000_audit_log).
// Listing is newest first on (create_time, id); the cursor carries create_time with its
// microseconds (keyset-page.ts says why).

/** Where a failed authentication is counted (countFailedAuthentication). */
type FailedAuthenticationColumns = "callCount" | "addressGroup" | "windowStart";

export interface NewAuditEvent extends Omit<AuditEvent, FailedAuthenticationColumns | "request"> {
  /** The redacted request as JSON (server/audit/describe-request.ts); never a secret. */
  request: Prisma.InputJsonValue;
}

/** `callCount`: the calls the event stands for (failed authentications of one address group and window). */
export interface AuditEventRow extends Omit<AuditEvent, "addressGroup" | "windowStart"> {
  cursor: readonly string[];
}

/** Where a failed authentication is counted: its address group and rate-limit window. */
export interface FailedAuthenticationKey {
  addressGroup: string;
  windowStart: Date;
}

export interface AuditEventQuery extends KeysetPageRequest {
  /** An account's events; null: events of no account; undefined: every event (the operator). */
  accountId: string | null | undefined;
  resource: string | undefined;
  actor: string | undefined;
  method: string | undefined;
  since: Date | undefined;
  before: Date | undefined;
}

export async function insertAuditEvent(db: DbClient, event: NewAuditEvent): Promise<void> {
  await db.auditEvent.create({ data: event });
}

/**
 * A failed authentication: the first of its address group and window is inserted as it is; every
 * later one only adds to that event's call_count (the one UPDATE the table's trigger lets through,
 * migration 20261129000000_audit_failed_auth_count). One statement, safe with replicas at once.
 */
export async function countFailedAuthentication(
  db: DbClient,
  event: NewAuditEvent,
  key: FailedAuthenticationKey,
): Promise<void> {
  await db.$executeRaw`
    INSERT INTO audit_events (id, account_id, actor_type, actor, session_id, method, resource, changed_fields,
                              request, address, request_id, code, create_time, address_group, window_start)
    VALUES (${event.id}, ${event.accountId}, ${event.actorType}::"AuditActorType", ${event.actor}, ${event.sessionId},
            ${event.method}, ${event.resource}, ${event.changedFields}, ${JSON.stringify(event.request)}::jsonb,
            ${event.address}, ${event.requestId}, ${event.code}, ${event.createTime}, ${key.addressGroup},
            ${key.windowStart})
    ON CONFLICT (address_group, window_start) DO UPDATE SET call_count = audit_events.call_count + 1`;
}

export async function listAuditEvents(db: DbClient, query: AuditEventQuery): Promise<AuditEventRow[]> {
  const conditions: Prisma.Sql[] = [];
  if (query.accountId === null) conditions.push(Prisma.sql`account_id IS NULL`);
  else if (query.accountId !== undefined) conditions.push(Prisma.sql`account_id = ${query.accountId}`);
  if (query.resource !== undefined) conditions.push(Prisma.sql`resource = ${query.resource}`);
  if (query.actor !== undefined) conditions.push(Prisma.sql`actor = ${query.actor}`);
  if (query.method !== undefined) conditions.push(Prisma.sql`method = ${query.method}`);
  if (query.since !== undefined) conditions.push(Prisma.sql`create_time >= ${query.since}`);
  if (query.before !== undefined) conditions.push(Prisma.sql`create_time < ${query.before}`);
  if (query.after !== undefined) {
    conditions.push(Prisma.sql`(create_time, id) < (${query.after[0]}::timestamptz, ${query.after[1]})`);
  }
  const where = conditions.length === 0 ? Prisma.sql`TRUE` : Prisma.join(conditions, " AND ");
  const rows = await db.$queryRaw<(Omit<AuditEventRow, "cursor"> & { cursorTime: string })[]>`
    SELECT id, account_id AS "accountId", actor_type::text AS "actorType", actor, session_id AS "sessionId", method,
           resource, COALESCE(changed_fields, '{}') AS "changedFields", request, address, request_id AS "requestId",
           code, create_time AS "createTime", call_count AS "callCount",
           ${cursorText("create_time")} AS "cursorTime"
      FROM audit_events
     WHERE ${where}
     ORDER BY create_time DESC, id DESC
     LIMIT ${query.take}`;
  return rows.map(({ cursorTime, ...row }) => ({ ...row, cursor: [cursorTime, row.id] }));
}

/**
 * Deletes at most `limit` events created before `cutoff` (retention), oldest first; how many went. Batched so
 * a first purge of a large table holds no long transaction. The trigger refuses a DELETE unless
 * `encore.audit_purge` is on, so it is set for this transaction alone. Idempotent: replicas may
 * purge at the same time.
 */
export async function purgeAuditEvents(db: Db, options: { cutoff: Date; limit: number }): Promise<number> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT set_config('encore.audit_purge', 'on', true)`;
    return tx.$executeRaw`
      DELETE FROM audit_events
       WHERE id IN (SELECT id FROM audit_events WHERE create_time < ${options.cutoff}
                    ORDER BY create_time LIMIT ${options.limit})`;
  });
}
