import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { MetricsGatherer } from './metrics.js';
import { isMessageOf, type PrimaryMessage } from './worker-messages.js';
import type { PrimaryChannel } from './worker-seal-sync.js';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** How long a scrape waits for the primary to gather every worker's metrics before it answers with its own alone. */
const GATHER_TIMEOUT_MS = 2_000;

/**
 * A worker's side of one scrape for all (`workers` > 1): `sys/metrics` on any worker answers with
 * every worker's series, each labelled `worker`. The worker asks the primary, which asks every
 * worker (this one too) for its registry's JSON and hands the lot back.
 */
export class WorkerMetricsGatherer implements MetricsGatherer {
  readonly #channel: PrimaryChannel;
  #own: () => Promise<MetricsJson> = async () => [];
  #nextId = 0;
  readonly #pending = new Map<number, (metrics: MetricsJson[]) => void>();

  constructor(channel: PrimaryChannel) {
    this.#channel = channel;
    channel.onMessage((message) => {
      if (isMessageOf<PrimaryMessage>(message)) void this.#onMessage(message);
    });
  }

  attach(own: () => Promise<MetricsJson>): void {
    this.#own = own;
  }

  gather(): Promise<MetricsJson[]> {
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(async () => {
        this.#pending.delete(id);
        resolve([await this.#own()]);
      }, GATHER_TIMEOUT_MS);
      this.#pending.set(id, (metrics) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(metrics);
      });
      this.#channel.send({ type: 'ward:metrics-request', id });
    });
  }

  async #onMessage(message: PrimaryMessage): Promise<void> {
    if (message.type === 'ward:metrics-collect') {
      const metrics = await this.#own();
      this.#channel.send({ type: 'ward:metrics', id: message.id, asker: message.asker, metrics });
    } else if (message.type === 'ward:metrics-answer') {
      this.#pending.get(message.id)?.(message.metrics as MetricsJson[]);
    }
  }
}
