import type { Random } from '@ward/base';

/** The established auto-auth defaults: `min_backoff` 1 s, `max_backoff` 5 minutes. */
export const DEFAULT_MIN_BACKOFF_MS = 1_000;
export const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Exponential backoff with jitter for retrying a server that is down: each failure doubles the
 * wait up to `maxMs`, and each wait is shortened by up to a quarter at random, so proxies that lost
 * the same server do not all come back at the same instant.
 */
export class Backoff {
  #nextMs: number;

  constructor(
    private readonly random: Random,
    private readonly minMs = DEFAULT_MIN_BACKOFF_MS,
    private readonly maxMs = DEFAULT_MAX_BACKOFF_MS,
  ) {
    this.#nextMs = minMs;
  }

  /** The wait before the next attempt; each call doubles the one after. */
  next(): number {
    const base = this.#nextMs;
    this.#nextMs = Math.min(this.maxMs, base * 2);
    const [a = 0, b = 0] = this.random.bytes(2);
    const fraction = ((a << 8) | b) / 0xffff;
    return Math.round(base * (1 - fraction / 4));
  }

  /** Back to the shortest wait, after a success. */
  reset(): void {
    this.#nextMs = this.minMs;
  }
}
