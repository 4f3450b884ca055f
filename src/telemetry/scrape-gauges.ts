import { Gauge, type Registry } from "prom-client";
import type { Backlog } from "../store/backlog.js";
import type { PoolStats } from "../store/open-database.js";

/** What a scrape reads at that moment, besides the counters kept as calls happen. */
export interface ScrapeSources {
  backlog: () => Promise<Backlog>;
  /** Absent with the embedded database: then no pool series is exposed at all. */
  poolStats?: () => PoolStats;
  /** With REDIS_URL only: true while the shared Redis store answers, false while counting in memory. */
  rateLimitStoreUp?: () => boolean;
  now: () => Date;
  onScrapeError: (error: unknown) => void;
}

/**
 * The gauges of docs/deploy.md "Metrics and alerts" read at a scrape, on `registry`; the
 * function returned sets them all from their sources (one backlog query a scrape).
 */
export function createScrapeGauges(sources: ScrapeSources, registry: Registry): () => Promise<void> {
  const registers = [registry];
  // Only with Redis configured, like the pool below: an unlabelled gauge reads 0 from the start.
  const storeUp = sources.rateLimitStoreUp && {
    read: sources.rateLimitStoreUp,
    gauge: new Gauge({
      name: "encore_rate_limit_store_up",
      help: "1 while the shared Redis rate-limit store answers, 0 while counting in memory (per replica); absent without REDIS_URL.",
      registers,
    }),
  };
  // Only with a pool: a 0 "waiting" on the embedded database would claim a pool that is not there.
  const pool = sources.poolStats && {
    read: sources.poolStats,
    connections: new Gauge({
      name: "encore_db_pool_connections",
      help: "PostgreSQL pool connections by state (total, idle); absent with the embedded database.",
      labelNames: ["state"] as const,
      registers,
    }),
    waiting: new Gauge({
      name: "encore_db_pool_waiting_requests",
      help: "Queries waiting for a free PostgreSQL pool connection; absent with the embedded database.",
      registers,
    }),
  };
  const unsettled = new Gauge({
    name: "encore_purchases_unsettled",
    help: "Purchases begun and not final yet, by state (all replicas: read from the database).",
    labelNames: ["state"] as const,
    registers,
  });
  const oldestAuthorized = new Gauge({
    name: "encore_purchase_oldest_authorized_age_seconds",
    help: "Age (since begin) of the oldest purchase the platform approved that is not settled yet; 0 when none.",
    registers,
  });
  const verifying = new Gauge({
    name: "encore_verification_backlog",
    help: "Campaigns waiting for background verification (spec 3.2).",
    registers,
  });
  const oldestVerifying = new Gauge({
    name: "encore_verification_oldest_age_seconds",
    help: "How long the longest-waiting campaign in verification has waited; 0 when none.",
    registers,
  });
  const backlogUp = new Gauge({
    name: "encore_backlog_read_up",
    help: "1 when this scrape read the backlog gauges from the database, 0 when it could not (they are then stale).",
    registers,
  });

  return async () => {
    if (pool) {
      const stats = pool.read();
      pool.connections.set({ state: "total" }, stats.total);
      pool.connections.set({ state: "idle" }, stats.idle);
      pool.waiting.set(stats.waiting);
    }
    if (storeUp) storeUp.gauge.set(storeUp.read() ? 1 : 0);
    try {
      const backlog = await sources.backlog();
      const now = sources.now();
      unsettled.set({ state: "INITIATED" }, backlog.unsettled.INITIATED);
      unsettled.set({ state: "AUTHORIZED" }, backlog.unsettled.AUTHORIZED);
      oldestAuthorized.set(ageSeconds(backlog.oldestAuthorized, now));
      verifying.set(backlog.verifying);
      oldestVerifying.set(ageSeconds(backlog.oldestVerifying, now));
      backlogUp.set(1);
    } catch (error) {
      backlogUp.set(0);
      sources.onScrapeError(error);
    }
  };
}

function ageSeconds(since: Date | null, now: Date): number {
  return since === null ? 0 : Math.max(0, (now.getTime() - since.getTime()) / 1000);
}
