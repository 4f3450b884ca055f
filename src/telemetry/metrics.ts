import { Code } from "@connectrpc/connect";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { PurchaseMetrics } from "../core/purchase-metrics.js";
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

export type PlatformOutcome = "ok" | "refused" | "unavailable";
/**
 * Which limit answered a 429: per address, per campaign key (begin), failed tickets (begin), or
 * failed authentications (every call that needs a credential, and the payment webhook).
 */
export const RATE_LIMIT_NAMES = ["address", "begin_per_campaign", "failed_tickets", "failed_auth"] as const;
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

export interface Metrics extends PurchaseMetrics {
  /** One RPC on any protocol; `code` is the Connect code it ended with (Code.Ok: none). */
  rpc(method: string, code: Code | "ok", seconds: number): void;
  /** One HTTP exchange with a platform (each retry is one). */
  platformCall(platform: string, call: string, outcome: PlatformOutcome, seconds: number): void;
  rateLimitRefused(limit: RateLimitName): void;
  /** An audit event that could not be written after its call. */
  auditWriteFailed(): void;
  /** The Prometheus text exposition, gauges read from their sources first. */
  scrape(): Promise<string>;
  contentType: string;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Every series of docs/deploy.md "Metrics and alerts" on a registry of this app's own (no
 * module-level singleton: two apps in one process, as in tests, never share counts), as
 * prom-client's own Counter, Histogram and Gauge. A call counts on the child series of its label
 * values (prom-client's `labels()`), made the first time and kept, not on a label object.
 */
export function createMetrics(sources: ScrapeSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { counter, histogram } = seriesOn(registry);
  const rpcTotal = counter(
    "encore_rpc_requests_total",
    "RPCs answered, on every protocol (REST, Connect, gRPC, gRPC-web), by method and final code.",
    ["method", "code"],
  );
  const rpcSeconds = histogram(
    "encore_rpc_duration_seconds",
    "Time from the first interceptor to the answer, by method and final code.",
    ["method", "code"],
  );
  const purchasesEnded = counter(
    "encore_purchases_ended_total",
    "Purchases this process moved to a final state (spec 3.1), by state and sandbox.",
    ["state", "sandbox"],
  );
  // Integer nano-USD, the service's own money unit: no rounding ever. A float64 counter holds
  // integers exactly up to 2^53 nano-USD (about 9 million USD) per process lifetime; the ledger,
  // not this counter, is the record of money.
  const creditIssued = counter(
    "encore_credit_issued_nano_usd_total",
    "Credit added to projects by player purchases (not sandbox), in nano-USD (1e-9 USD).",
  );
  const creditReversed = counter(
    "encore_credit_reversed_nano_usd_total",
    "Credit taken back from projects by refunds and chargebacks Steam reported, by reversal kind, in nano-USD.",
    ["kind"],
  );
  const platformTotal = counter(
    "encore_platform_requests_total",
    "HTTP exchanges with a platform (each retry counts), by call and outcome (ok, refused, unavailable).",
    ["platform", "call", "outcome"],
  );
  const platformSeconds = histogram(
    "encore_platform_request_duration_seconds",
    "Duration of one HTTP exchange with a platform, by call and outcome.",
    ["platform", "call", "outcome"],
  );
  const rateLimitRefusals = counter("encore_rate_limit_refusals_total", "Calls refused with 429 (spec 8), by limit.", [
    "limit",
  ]);
  const auditWriteFailures = counter(
    "encore_audit_write_failures_total",
    "Audit events that could not be written after their call (each logged at error with the event).",
  );
  const refreshGauges = createScrapeGauges(sources, registry);

  const rpcCalls = kept((key) => timed(rpcTotal, rpcSeconds, key.split("\n")));
  const platformCalls = kept((key) => timed(platformTotal, platformSeconds, key.split("\n")));
  const ended = kept((key) => purchasesEnded.labels(...key.split("\n")));
  const reversed = kept((kind) => creditReversed.labels(kind));
  const refused = kept((limit) => rateLimitRefusals.labels(limit));

  return {
    rpc: (method, code, seconds) => rpcCalls(`${method}\n${CODE_LABELS.get(code) ?? "unknown"}`)(seconds),
    platformCall: (platform, call, outcome, seconds) => platformCalls(`${platform}\n${call}\n${outcome}`)(seconds),
    rateLimitRefused: (limit) => refused(limit).inc(),
    auditWriteFailed: () => auditWriteFailures.inc(),
    purchaseEnded(state, purchase) {
      ended(`${state}\n${purchase.sandbox}`).inc();
      // Spec 1.6: a sandbox purchase ends CREDITED but moves no money.
      if (state === "CREDITED" && !purchase.sandbox) creditIssued.inc(Number(purchase.creditNanos));
    },
    creditFromReport: (creditNanos) => creditIssued.inc(Number(creditNanos)),
    creditReversed: (kind, nanos) => reversed(kind).inc(Number(nanos)),
    scrape: async () => {
      await refreshGauges();
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

/** prom-client's Counter, Histogram and Gauge, each registered on `registry` alone. */
function seriesOn(registry: Registry) {
  const registers = [registry];
  return {
    counter: (name: string, help: string, labelNames: string[] = []) =>
      new Counter({ name, help, labelNames, registers }),
    histogram: (name: string, help: string, labelNames: string[]) =>
      new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers }),
    gauge: (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers }),
  };
}

/** What `make` gave for each key, made the first time the key is asked for and kept. */
function kept<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let found = made.get(key);
    if (found === undefined) {
      found = make(key);
      made.set(key, found);
    }
    return found;
  };
}

/** Counts one call and observes its duration on the child series of `labels`. */
function timed(total: Counter, seconds: Histogram, labels: string[]): (seconds: number) => void {
  const count = total.labels(...labels);
  const time = seconds.labels(...labels);
  return (s) => {
    count.inc();
    time.observe(s);
  };
}

/** `not_found`, `resource_exhausted`...: the gRPC code names as Prometheus label values. */
const CODE_LABELS = new Map<Code | "ok", string>([
  ["ok", "ok"],
  ...Object.values(Code)
    .filter((code) => typeof code === "number")
    .map((code): [Code, string] => [code, Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()]),
]);

/**
 * The gauges of docs/deploy.md "Metrics and alerts" read at a scrape, on `registry`; the
 * function returned sets them all from their sources (one backlog query a scrape).
 */
function createScrapeGauges(sources: ScrapeSources, registry: Registry): () => Promise<void> {
  const { gauge } = seriesOn(registry);
  // Only with Redis configured, like the pool below: an unlabelled gauge reads 0 from the start.
  const storeUp = sources.rateLimitStoreUp && {
    read: sources.rateLimitStoreUp,
    gauge: gauge(
      "encore_rate_limit_store_up",
      "1 while the shared Redis rate-limit store answers, 0 while counting in memory (per replica); absent without REDIS_URL.",
    ),
  };
  // Only with a pool: a 0 "waiting" on the embedded database would claim a pool that is not there.
  const pool = sources.poolStats && {
    read: sources.poolStats,
    connections: gauge(
      "encore_db_pool_connections",
      "PostgreSQL pool connections by state (total, idle); absent with the embedded database.",
      ["state"],
    ),
    waiting: gauge(
      "encore_db_pool_waiting_requests",
      "Queries waiting for a free PostgreSQL pool connection; absent with the embedded database.",
    ),
  };
  const unsettled = gauge(
    "encore_purchases_unsettled",
    "Purchases begun and not final yet, by state (all replicas: read from the database).",
    ["state"],
  );
  const oldestAuthorized = gauge(
    "encore_purchase_oldest_authorized_age_seconds",
    "Age (since begin) of the oldest purchase the platform approved that is not settled yet; 0 when none.",
  );
  const verifying = gauge("encore_verification_backlog", "Campaigns waiting for background verification (spec 3.2).");
  const oldestVerifying = gauge(
    "encore_verification_oldest_age_seconds",
    "How long the longest-waiting campaign in verification has waited; 0 when none.",
  );
  const backlogUp = gauge(
    "encore_backlog_read_up",
    "1 when this scrape read the backlog gauges from the database, 0 when it could not (they are then stale).",
  );

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
