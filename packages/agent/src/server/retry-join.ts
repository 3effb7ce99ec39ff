import type { Cancel, Clock, Logger } from '@ward/base';

export interface RetryJoinOptions {
  clock: Clock;
  log: Logger;
  addresses: string[];
  /** The longest wait between attempts; waits start at 250 ms and double up to this. */
  intervalMs: number;
  /** Attempts before giving up; 0 = until joined. */
  max: number;
  join(addresses: string[]): Promise<{ numJoined: number; errors: string[] }>;
}

const FIRST_DELAY_MS = 250;

/**
 * `retry_join`: servers started together each name peers that may not listen yet, so
 * a failed join is retried with backoff (250 ms doubling up to `retry_interval`) until
 * one address answers or `retry_max` attempts have failed.
 */
export class RetryJoiner {
  #attempts = 0;
  #timer: Cancel | undefined;
  #isStopped = false;
  /** Resolves true once joined, false when the attempts ran out or it was stopped. */
  readonly done: Promise<boolean>;
  #finish: (joined: boolean) => void = () => {};

  constructor(private readonly o: RetryJoinOptions) {
    this.done = new Promise((resolve) => {
      this.#finish = resolve;
    });
  }

  start(): void {
    void this.#attempt();
  }

  stop(): void {
    this.#isStopped = true;
    this.#timer?.();
    this.#finish(false);
  }

  async #attempt(): Promise<void> {
    if (this.#isStopped) return;
    this.#attempts++;
    const res = await this.o.join(this.o.addresses);
    if (this.#isStopped) return;
    if (res.numJoined > 0) {
      this.o.log.info('agent: retry join completed', { initial_servers: res.numJoined, attempts: this.#attempts });
      this.#finish(true);
      return;
    }
    if (this.o.max > 0 && this.#attempts >= this.o.max) {
      this.o.log.error('agent: max join retry exhausted', { attempts: this.#attempts, error: res.errors.join('; ') });
      this.#finish(false);
      return;
    }
    const delayMs = Math.min(this.o.intervalMs, FIRST_DELAY_MS * 2 ** (this.#attempts - 1));
    this.o.log.warn('agent: join failed, retrying', { attempt: this.#attempts, retry_in_ms: delayMs });
    this.#timer = this.o.clock.setTimeout(() => void this.#attempt(), delayMs);
  }
}
