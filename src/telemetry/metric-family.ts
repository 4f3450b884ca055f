import type { Metric, Registry } from "prom-client";

/**
 * Counters and histograms counted without prom-client's per-call work: prom-client hashes and
 * validates the label set at every inc and observe, even through a child series from `labels()`
 * (lib/counter.js, lib/histogram.js), about a microsecond an RPC. Here a caller's label values
 * find their series once per distinct set, through a map per label, and counting is arithmetic
 * on that series. The families still live in prom-client's registry: it reads them at a scrape
 * through `get()`, in the shape its own metrics give, so the text exposition and a cluster
 * primary's aggregation of its workers (summing by metric name and labels) are prom-client's.
 */

type Labels<N extends string> = Readonly<Record<N, string>>;

interface ExportedValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** What prom-client's registry reads of a metric at a scrape. */
interface Exported {
  name: string;
  help: string;
  type: "counter" | "histogram";
  values: ExportedValue[];
  aggregator: "sum";
}

interface FamilyOptions<N extends string> {
  name: string;
  help: string;
  labelNames?: readonly N[];
  registry: Registry;
}

abstract class Family<N extends string, S> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = "sum";
  private readonly labelNames: readonly N[];
  /** Every label name but the last: each a level of maps from its value to the next level. */
  private readonly outerNames: readonly N[];
  /** The last label name, whose level maps its value to the series; none without labels. */
  private readonly lastName: N | undefined;
  private readonly byValues = new Map<string, unknown>();
  private only: S | undefined;
  private readonly made: { labels: Labels<N>; series: S }[] = [];

  constructor(options: FamilyOptions<N>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames ?? [];
    this.outerNames = this.labelNames.slice(0, -1);
    this.lastName = this.labelNames.at(-1);
    // The registry reads a metric through name, help, type, aggregator and get() alone; these
    // are not prom-client's classes, so its Metric type is claimed here, in one place.
    options.registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these label values, made the first time they are asked for. */
  series(labels: Labels<N>): S {
    if (this.lastName === undefined) {
      this.only ??= this.make(labels);
      return this.only;
    }
    let level = this.byValues;
    for (const name of this.outerNames) {
      let next = level.get(labels[name]) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(labels[name], next);
      }
      level = next;
    }
    const value = labels[this.lastName];
    let found = level.get(value) as S | undefined;
    if (found === undefined) {
      found = this.make(labels);
      level.set(value, found);
    }
    return found;
  }

  private make(labels: Labels<N>): S {
    // Only the declared names are kept: a caller's object may carry more.
    const own = {} as Record<N, string>;
    for (const name of this.labelNames) own[name] = labels[name];
    const series = this.newSeries();
    this.made.push({ labels: own, series });
    return series;
  }

  protected abstract newSeries(): S;
  protected abstract exportSeries(labels: Labels<N>, series: S, into: ExportedValue[]): void;
  abstract readonly type: Exported["type"];

  get(): Promise<Exported> {
    // A family without labels shows its one series from the start, read as 0 until counted,
    // as prom-client's own unlabelled metrics do.
    if (this.labelNames.length === 0) this.series({} as Labels<N>);
    const values: ExportedValue[] = [];
    for (const { labels, series } of this.made) this.exportSeries(labels, series, values);
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }
}

export class CounterSeries {
  value = 0;

  /** Adds `by` (1 when omitted); a counter only goes up, by a finite amount. */
  inc(by = 1): void {
    if (!(by >= 0 && by !== Infinity)) throw new RangeError(`a counter goes up by a finite amount, not ${by}`);
    this.value += by;
  }
}

export class CounterFamily<N extends string = never> extends Family<N, CounterSeries> {
  readonly type = "counter";

  protected newSeries(): CounterSeries {
    return new CounterSeries();
  }

  protected exportSeries(labels: Labels<N>, series: CounterSeries, into: ExportedValue[]): void {
    into.push({ labels: { ...labels }, value: series.value });
  }
}

export class HistogramSeries {
  /** Observations per bucket, not cumulative; one past the last bound is +Inf's alone. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new RangeError(`a histogram observes finite values, not ${value}`);
    let bucket = 0;
    for (const bound of this.bounds) {
      if (value <= bound) break;
      bucket++;
    }
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.sum += value;
    this.count += 1;
  }
}

export class HistogramFamily<N extends string = never> extends Family<N, HistogramSeries> {
  readonly type = "histogram";
  private readonly bounds: readonly number[];

  constructor(options: FamilyOptions<N> & { buckets: readonly number[] }) {
    super(options);
    this.bounds = [...options.buckets].sort((a, b) => a - b);
  }

  protected newSeries(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }

  protected exportSeries(labels: Labels<N>, series: HistogramSeries, into: ExportedValue[]): void {
    // prom-client's own order: each bucket's `le` first, then the series' labels.
    const bucketName = `${this.name}_bucket`;
    let below = 0;
    this.bounds.forEach((bound, i) => {
      below += series.counts[i] ?? 0;
      into.push({ labels: { le: bound, ...labels }, value: below, metricName: bucketName });
    });
    into.push({ labels: { le: "+Inf", ...labels }, value: series.count, metricName: bucketName });
    into.push({ labels: { ...labels }, value: series.sum, metricName: `${this.name}_sum` });
    into.push({ labels: { ...labels }, value: series.count, metricName: `${this.name}_count` });
  }
}
