import { hostname } from 'node:os';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Gauge,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import type { MetricsAnswer, MetricsReport } from '../core/system-core.js';
import type { StorageBackend } from '../storage/index.js';
import { HistogramMetric, type HistogramSeries } from './histogram-series.js';

/** `telemetry { … }` of the configuration file. */
export interface TelemetryConfig {
  /** Leave the `host` label off every series. */
  disableHostname: boolean;
  /** Prometheus output is offered only when this is above 0 (as established servers do). */
  prometheusRetentionSeconds: number;
}

/** What the gauges read when scraped; the server wires them to the core after building it. */
export interface CoreGauges {
  isSealed(): boolean;
  leaseCount(): { total: number; irrevocable: number };
}

/** `workers` > 1: every worker's metrics for one scrape (this one's included), from the other worker processes. */
export interface MetricsGatherer {
  /** How this worker's own metrics are read when a sibling gathers. */
  attach(own: () => Promise<MetricObjectWithValues<MetricValue<string>>[]>): void;
  gather(): Promise<MetricObjectWithValues<MetricValue<string>>[][]>;
}

/** The server's metrics: a prom-client registry, the series the HTTP layer and storage feed, the report. */
export interface ServerMetrics extends MetricsReport {
  /** One request answered: for the request count and latency histogram. */
  observeRequest(labels: { method: string; mountType: string; status: number }, seconds: number): void;
  /** The storage backend with each operation timed. */
  timeStorage(storage: StorageBackend): StorageBackend;
  /** Connects the gauges that read the core. */
  watchCore(core: CoreGauges): void;
}

/** Builds the registry; nothing is global, so two servers in one process keep separate metrics. */
export function createServerMetrics(
  config: TelemetryConfig,
  worker?: { id: number; gatherer: MetricsGatherer },
): ServerMetrics {
  const workerId = worker?.id;
  const registry = new Registry();
  // `workers` > 1: every series names its worker process; `sum without (worker)` aggregates them.
  registry.setDefaultLabels({
    ...(config.disableHostname ? {} : { host: hostname() }),
    ...(workerId === undefined ? {} : { worker: String(workerId) }),
  });
  // Event-loop lag, heap, GC and handles, as prom-client collects them for Node.
  collectDefaultMetrics({ register: registry, prefix: 'ward_process_' });
  const latency = new HistogramMetric<'method' | 'mount_type' | 'status'>(
    'ward_http_request_duration_seconds',
    'Time to answer a request, by method, mount type and status.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  latency.register(
    registry,
    latency.counter('ward_http_requests_total', 'Requests answered, by method, mount type and status.'),
  );
  const storageTime = new HistogramMetric<'operation'>(
    'ward_storage_operation_duration_seconds',
    'Time of each storage backend operation (below the barrier).',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  ).register(registry);
  let core: CoreGauges | undefined;
  new Gauge({
    name: 'ward_core_unsealed',
    help: '1 while the server is unsealed, 0 while sealed.',
    registers: [registry],
    collect() {
      this.set(core && !core.isSealed() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ward_expire_num_leases',
    help: 'Leases (tokens and secrets) the expiration manager tracks; irrevocable ones labelled.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const count = core && !core.isSealed() ? core.leaseCount() : { total: 0, irrevocable: 0 };
      this.set({ state: 'active' }, count.total - count.irrevocable);
      this.set({ state: 'irrevocable' }, count.irrevocable);
    },
  });

  // Each series is resolved once (see HistogramMetric for why not prom-client's own).
  const timed = (operation: string) => {
    const series = storageTime.series({ operation });
    return <T>(run: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const done = () => series.observe((performance.now() - started) / 1e3);
      let result: Promise<T>;
      try {
        result = run();
      } catch (err) {
        result = Promise.reject(err);
      }
      // The operation's own promise goes back to the caller: no extra promise to await per operation.
      result.then(done, done);
      return result;
    };
  };
  // By method, then mount type, then status: no key string built per request.
  const requestSeries = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  const requestSeriesOf = (method: string, mountType: string, status: number) => {
    let byMount = requestSeries.get(method);
    if (!byMount) {
      byMount = new Map();
      requestSeries.set(method, byMount);
    }
    let byStatus = byMount.get(mountType);
    if (!byStatus) {
      byStatus = new Map();
      byMount.set(mountType, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = latency.series({ method, mount_type: mountType || 'none', status: String(status) });
      byStatus.set(status, series);
    }
    return series;
  };
  const metrics: ServerMetrics = {
    observeRequest({ method, mountType, status }, seconds) {
      requestSeriesOf(method, mountType, status).observe(seconds);
    },
    timeStorage: (storage) => {
      const get = timed('get');
      const put = timed('put');
      const del = timed('delete');
      const list = timed('list');
      const transaction = timed('transaction');
      const holds = storage.holds?.bind(storage);
      return {
        get: (key) => get(() => storage.get(key)),
        // Timed as a get: it is the read the barrier makes instead of one.
        ...(holds ? { holds: (key: string, value: Uint8Array) => get(() => holds(key, value)) } : {}),
        put: (key, value) => put(() => storage.put(key, value)),
        delete: (key) => del(() => storage.delete(key)),
        list: (prefix) => list(() => storage.list(prefix)),
        transaction: (operations) => transaction(() => storage.transaction(operations)),
        openSnapshot: () => storage.openSnapshot(),
        replaceAll: (entries) => storage.replaceAll(entries),
        close: () => storage.close(),
      };
    },
    watchCore(watched) {
      core = watched;
    },
    render: async (format) => {
      if (!worker) return render(registry, config, format);
      // One scrape shows every worker: prom-client sums series with equal labels, and each carries its worker.
      return render(AggregatorRegistry.aggregate(await worker.gatherer.gather()), config, format);
    },
  };
  worker?.gatherer.attach(() => registry.getMetricsAsJSON());
  return metrics;
}

async function render(registry: Registry, config: TelemetryConfig, format: string): Promise<MetricsAnswer> {
  const text = (status: number, body: string): MetricsAnswer => ({ status, contentType: 'text/plain', body });
  if (format === 'prometheus') {
    if (config.prometheusRetentionSeconds <= 0) return text(400, 'prometheus is not enabled');
    return { status: 200, contentType: registry.contentType, body: await registry.metrics() };
  }
  if (format !== '' && format !== 'json') return text(400, `metric response format "${format}" unknown`);
  return {
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify(summary(await registry.getMetricsAsJSON())),
  };
}

/** The established JSON layout: gauges, counters and samples (histograms) as lists of named values. */
function summary(metrics: MetricObjectWithValues<MetricValue<string>>[]) {
  const named = (m: { name: string }, v: MetricValue<string>) => ({ Name: m.name, Labels: v.labels });
  const ofType = (type: string) => metrics.filter((m) => String(m.type) === type);
  return {
    Timestamp: new Date().toISOString(),
    Gauges: ofType('gauge').flatMap((m) => m.values.map((v) => ({ ...named(m, v), Value: v.value }))),
    Counters: ofType('counter').flatMap((m) => m.values.map((v) => ({ ...named(m, v), Count: v.value, Sum: v.value }))),
    Samples: ofType('histogram').flatMap((m) =>
      m.values
        .filter((v) => (v as { metricName?: string }).metricName?.endsWith('_count'))
        .map((v) => ({ ...named(m, v), Count: v.value })),
    ),
    Points: [],
  };
}
