import { readFileSync } from "node:fs";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { createMetrics, type Metrics, type ScrapeSources } from "../../src/telemetry/metrics.js";

// Dashboards and the alerts of docs/deploy.md "Metrics and alerts" read these series by name,
// label and bucket: exposition.txt is the text they were written against.
const EXPOSITION = readFileSync(new URL("exposition.txt", import.meta.url), "utf8");

const NOW = new Date("2026-03-01T12:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

function metrics(sources: Partial<ScrapeSources> = {}): Metrics {
  return createMetrics({
    backlog: async () => ({
      unsettled: { INITIATED: 4, AUTHORIZED: 2 },
      oldestAuthorized: ago(90),
      verifying: 3,
      oldestVerifying: ago(600),
    }),
    poolStats: () => ({ total: 10, idle: 7, waiting: 1 }),
    rateLimitStoreUp: () => true,
    now: () => NOW,
    onScrapeError: () => {},
    ...sources,
  });
}

/** The service's own series (not prom-client's process_* and nodejs_*), as exposed. */
const own = (text: string) =>
  text
    .split("\n")
    .filter((line) => /^(# (HELP|TYPE) )?encore_/.test(line))
    .map((line) => `${line}\n`)
    .join("");

describe("the /metrics exposition", () => {
  it("prints every series with its name, help, type, labels and buckets", async () => {
    const m = metrics();
    m.rpc("a.v1.Svc/Get", "ok", 0.003);
    m.rpc("a.v1.Svc/Get", "ok", 0.005); // on a bound: in that bucket (`le`)
    m.rpc("a.v1.Svc/Get", Code.NotFound, 0.02);
    m.rpc("a.v1.Svc/Begin", Code.ResourceExhausted, 7);
    m.platformCall("steam", "InitTxn", "ok", 0.25);
    m.platformCall("steam", "QueryTxn", "unavailable", 10);
    m.rateLimitRefused("begin_per_campaign");
    m.auditWriteFailed();
    m.purchaseEnded("CREDITED", { creditNanos: 3_000_000_000n, sandbox: false });
    // Spec 1.6: a sandbox purchase is counted as ended, with no credit.
    m.purchaseEnded("CREDITED", { creditNanos: 5_000_000_000n, sandbox: true });
    m.purchaseEnded("FAILED", { creditNanos: 1n, sandbox: false });
    m.creditFromReport(2_000_000_000n);
    m.creditReversed("CHARGEDBACK", 1_500_000_000n);
    expect(own(await m.scrape())).toBe(EXPOSITION);
  });

  it("shows an unlabelled counter as 0 before it counts, and a labelled one not at all", async () => {
    const text = own(await metrics().scrape());
    expect(text).toContain("\nencore_audit_write_failures_total 0\n");
    expect(text).toContain("\nencore_credit_issued_nano_usd_total 0\n");
    expect(text).not.toContain("encore_rpc_requests_total{");
    expect(text).not.toContain("encore_rpc_duration_seconds_bucket{");
  });

  it("says the backlog gauges are stale when the database cannot be read", async () => {
    const errors: unknown[] = [];
    const failing = metrics({
      backlog: () => Promise.reject(new Error("database gone")),
      onScrapeError: (error) => errors.push(error),
    });
    expect(own(await failing.scrape())).toContain("\nencore_backlog_read_up 0\n");
    expect(errors).toHaveLength(1);
  });
});
