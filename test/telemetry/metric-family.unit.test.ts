import { AggregatorRegistry, Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { CounterFamily, HistogramFamily } from "../../src/telemetry/metric-family.js";

// prom-client's own Counter and Histogram are the oracle: the same counting through our families
// must read the same at a scrape, alone and summed over a cluster's registries.

const BUCKETS = [0.005, 0.01, 0.1, 1];
const LABELS = ["method", "code"] as const;
type Observation = [method: string, code: string, seconds: number];
const OBSERVATIONS: Observation[] = [
  ["a.Svc/Get", "ok", 0.003],
  ["a.Svc/Get", "ok", 0.005], // on a bound: in that bucket, as prom-client's `<=`
  ["a.Svc/Get", "not_found", 0.02],
  ["b.Svc/Begin", "ok", 0.5],
  ["b.Svc/Begin", "ok", 7], // above every bound: +Inf alone
  ["a.Svc/Get", "ok", 0],
];

function ours(observations: Observation[]): Registry {
  const registry = new Registry();
  const total = new CounterFamily({ name: "t_total", help: "Calls.", labelNames: LABELS, registry });
  const seconds = new HistogramFamily({
    name: "t_seconds",
    help: "Time.",
    labelNames: LABELS,
    buckets: BUCKETS,
    registry,
  });
  const failures = new CounterFamily({ name: "t_failures_total", help: "Failures.", registry });
  for (const [method, code, s] of observations) {
    total.series({ method, code }).inc();
    seconds.series({ method, code }).observe(s);
    if (code !== "ok") failures.series({}).inc(2);
  }
  return registry;
}

function theirs(observations: Observation[]): Registry {
  const registry = new Registry();
  const registers = [registry];
  const total = new Counter({ name: "t_total", help: "Calls.", labelNames: LABELS, registers });
  const seconds = new Histogram({ name: "t_seconds", help: "Time.", labelNames: LABELS, buckets: BUCKETS, registers });
  const failures = new Counter({ name: "t_failures_total", help: "Failures.", registers });
  for (const [method, code, s] of observations) {
    total.inc({ method, code });
    seconds.observe({ method, code }, s);
    if (code !== "ok") failures.inc(2);
  }
  return registry;
}

describe("CounterFamily and HistogramFamily", () => {
  it("read at a scrape exactly as prom-client's Counter and Histogram counting the same", async () => {
    expect(await ours(OBSERVATIONS).metrics()).toBe(await theirs(OBSERVATIONS).metrics());
  });

  it("show an unlabelled counter as 0 before it counts, and a labelled one not at all", async () => {
    expect(await ours([]).metrics()).toBe(await theirs([]).metrics());
    expect(await ours([]).metrics()).toContain("t_failures_total 0");
    expect(await ours([]).metrics()).not.toContain("t_total{");
  });

  it("sum over a cluster's registries as prom-client's aggregation of its own metrics", async () => {
    const first = OBSERVATIONS.slice(0, 3);
    const second = OBSERVATIONS.slice(2);
    const aggregated = async (registries: Registry[]) =>
      AggregatorRegistry.aggregate(await Promise.all(registries.map((r) => r.getMetricsAsJSON()))).metrics();
    expect(await aggregated([ours(first), ours(second)])).toBe(await aggregated([theirs(first), theirs(second)]));
  });

  it("give one series per label set, whatever else the caller's object carries", () => {
    const registry = new Registry();
    const family = new CounterFamily({ name: "x_total", help: "X.", labelNames: ["a", "b"], registry });
    const series = family.series({ a: "1", b: "2" });
    expect(family.series({ a: "1", b: "2" })).toBe(series);
    expect(family.series({ a: "1", b: "3" })).not.toBe(series);
    expect(family.series({ a: "2", b: "2" })).not.toBe(series);
    const wider = { a: "1", b: "2", c: "ignored" };
    expect(family.series(wider)).toBe(series);
  });

  it("refuse what prom-client refuses: a counter going down or by no number, an observation of no number", () => {
    const registry = new Registry();
    const counter = new CounterFamily({ name: "x_total", help: "X.", registry }).series({});
    const histogram = new HistogramFamily({
      name: "x_seconds",
      help: "X.",
      labelNames: ["a"],
      buckets: BUCKETS,
      registry,
    });
    expect(() => counter.inc(-1)).toThrow(RangeError);
    expect(() => counter.inc(Number.NaN)).toThrow(RangeError);
    expect(() => counter.inc(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => histogram.series({ a: "1" }).observe(Number.NaN)).toThrow(RangeError);
    expect(counter.value).toBe(0);
    expect(histogram.series({ a: "1" }).count).toBe(0);
  });

  it("cannot share a name with another metric on the same registry", () => {
    const registry = new Registry();
    new Counter({ name: "x_total", help: "X.", registers: [registry] });
    expect(() => new CounterFamily({ name: "x_total", help: "X.", registry })).toThrow(/already been registered/);
  });
});
