import type { Metric, MetricValue, Registry } from 'prom-client';

/** One label set of a histogram: what a request or a storage operation feeds. */
export interface HistogramSeries {
  observe(seconds: number): void;
}

interface Series<L extends string> {
  labels: Record<L, string>;
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram registered in a prom-client registry, rendered as prom-client renders its own
 * (`_bucket` with `le`, `_sum`, `_count`), and optionally its count as a counter of its own.
 *
 * Why not prom-client's `Histogram`: its `observe` validates and hashes the label set, builds
 * two objects and a closure, and finds the bucket by a property named after the bound, on every
 * call, even through `labels(...)`; the hot path observes three times per request. Here a series
 * is resolved once per label set, and an observation is a bucket search and three additions.
 */
export class HistogramMetric<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  /** The series of `labels`, created on first use; keep it, rather than calling this per observation. */
  series(labels: Record<L, string>): HistogramSeries {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels: { ...labels }, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const found = series;
    const bounds = this.buckets;
    return {
      observe(seconds) {
        let i = 0;
        while (i < bounds.length && seconds > (bounds[i] as number)) i++;
        found.counts[i] = (found.counts[i] as number) + 1;
        found.sum += seconds;
        found.count += 1;
      },
    };
  }

  async get() {
    const values: Array<MetricValue<string> & { metricName: string }> = [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += counts[i] as number;
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }

  /** A counter of the observations per label set (`name`): the same count, no second update per call. */
  counter(name: string, help: string) {
    return {
      name,
      help,
      type: 'counter' as const,
      aggregator: 'sum' as const,
      get: async () => ({
        name,
        help,
        type: 'counter' as const,
        aggregator: 'sum' as const,
        values: [...this.#series.values()].map(({ labels, count }) => ({ labels, value: count })),
      }),
      reset: () => this.reset(),
    };
  }

  /** Adds this histogram (and `also`, e.g. its counter) to `registry`. */
  register(registry: Registry, ...also: Array<{ name: string }>): this {
    for (const metric of [this, ...also]) registry.registerMetric(metric as unknown as Metric);
    return this;
  }
}
