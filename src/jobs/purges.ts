import type { ServiceDeps } from "../core/deps.js";
import { NONCE_MAX_AGE_MS } from "../domain/openid-assertion.js";
import { purgeAuditEvents } from "../store/audit-events.js";
import { expireCheckoutSessions } from "../store/checkout.js";
import type { Db } from "../store/open-database.js";
import { deleteExpiredSessions } from "../store/sessions.js";
import { purgeWebSessions } from "../store/web-sessions.js";
import { purgeWebhookEvents } from "../store/webhook-retention.js";
import { createIntervalJob, type IntervalJob } from "./interval-job.js";

// Every purge is one declaration (PurgeKind) of what it deletes or expires, from what age, how
// many rows a run takes and how often it runs, run by purge. None needs a lease: each store
// statement is safe with replicas running it at once (each removes what is left).

export interface PurgeOptions {
  deps: Pick<ServiceDeps, "db" | "now" | "logger">;
  /** Time between runs. */
  intervalMs?: number;
  /** Rows removed per run at most, for a purge that takes batches; a full batch runs again at once. */
  batch?: number;
}

export interface RetentionPurgeOptions extends PurgeOptions {
  /** Rows older than this many days are deleted (the store's purge says which may go). */
  retentionDays: number;
}

export type Purge = IntervalJob<number>;

type Remove<O> = (db: Db, options: O & { now: Date }) => Promise<number>;

type PurgeKind = {
  name: string;
  /** The log line of a run that removed rows. */
  removed: string;
  intervalMs: number;
  /** How old a row is when it is due. */
  ageMs: number;
} & (
  | { batch: number; remove: Remove<{ cutoff: Date; limit: number }> }
  // No batch: one statement removes every row due.
  | { batch?: undefined; remove: Remove<{ cutoff: Date }> }
);

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

// A checkout session is a payment page left open: after a day a payer who never paid has
// abandoned it (the proto's STATE_EXPIRED: "Abandoned or expired"), and a late payment for it
// must not credit. The provider's own pages expire within the same day.
export const CHECKOUT_SESSION_LIFETIME_MS = DAY_MS;

/** A purge that runs `kind`, at the interval and batch its options may change. */
const purge =
  (kind: PurgeKind) =>
  (options: PurgeOptions): Purge => {
    const { deps } = options;
    const batch = kind.batch === undefined ? undefined : (options.batch ?? kind.batch);
    const logger = deps.logger.child({ job: kind.name });
    return createIntervalJob({
      name: kind.name,
      intervalMs: options.intervalMs ?? kind.intervalMs,
      logger,
      runOnce: async () => {
        const now = deps.now();
        const cutoff = new Date(now.getTime() - kind.ageMs);
        const removed =
          kind.batch === undefined
            ? await kind.remove(deps.db, { now, cutoff })
            : await kind.remove(deps.db, { now, cutoff, limit: batch ?? kind.batch });
        if (removed > 0) logger.info({ rows: removed, before: cutoff.toISOString() }, kind.removed);
        return removed;
      },
      runAgain: (removed) => batch !== undefined && removed >= batch,
    });
  };

/** Deletes, hourly (retention is counted in days), a batch at a time, what outlived its retention. */
const retentionPurge =
  (name: string, rows: string, batch: number, remove: Remove<{ cutoff: Date; limit: number }>) =>
  ({ retentionDays, ...options }: RetentionPurgeOptions): Purge =>
    purge({
      name,
      removed: `${rows} past retention deleted`,
      intervalMs: 60 * MINUTE_MS,
      ageMs: retentionDays * DAY_MS,
      batch,
      remove,
    })(options);

/** AUDIT_RETENTION_DAYS; the only writer allowed to delete from the audit log (store/audit-events.ts). */
export const createAuditPurge = retentionPurge("audit-purge", "audit events", 5_000, purgeAuditEvents);

/**
 * WEBHOOK_RETENTION_DAYS: keeps the outbox from growing without end; events whose deliveries are
 * all finished go with them (store/webhook-retention.ts, taking its events with SKIP LOCKED).
 */
export const createWebhookPurge = retentionPurge("webhook-purge", "webhook events", 1_000, purgeWebhookEvents);

/**
 * Deletes expired sessions (they live at most 12 hours, services/operator/account-methods.ts). An expired
 * session already fails to authenticate, so the interval only bounds storage.
 */
export const createSessionPurge = purge({
  name: "session-purge",
  removed: "expired sessions deleted",
  intervalMs: 15 * MINUTE_MS,
  ageMs: 0,
  remove: (db, { cutoff }) => deleteExpiredSessions(db, cutoff),
});

/**
 * Deletes the funding page's expired browser sessions (and with them the Steam ids they held) and
 * the OpenID nonces no return could be accepted with any more. A nonce is refused as stale once
 * older than NONCE_MAX_AGE_MS, so it is kept a while past that (for the provider's clock running
 * ahead of ours) and no longer.
 */
export const createWebSessionPurge = purge({
  name: "web-session-purge",
  removed: "expired web sessions and stale nonces deleted",
  intervalMs: 15 * MINUTE_MS,
  ageMs: 2 * NONCE_MAX_AGE_MS,
  remove: (db, { now, cutoff }) => purgeWebSessions(db, now, cutoff),
});

/**
 * Moves OPEN checkout sessions older than CHECKOUT_SESSION_LIFETIME_MS to EXPIRED; the interval is
 * how long past its lifetime a session may still read OPEN. Completion, conditional on OPEN like
 * the expiry, credits a session only if it was paid before it expired.
 */
export const createCheckoutExpiry = purge({
  name: "checkout-expiry",
  removed: "abandoned checkout sessions expired",
  intervalMs: 5 * MINUTE_MS,
  ageMs: CHECKOUT_SESSION_LIFETIME_MS,
  remove: (db, { cutoff }) => expireCheckoutSessions(db, { openedBefore: cutoff }),
});
