import type { Cancel, Clock } from '@ward/base';

/**
 * Lifeguard's dynamic suspicion timer: it starts long and shrinks as independent
 * members confirm the suspicion, so a truly dead node is declared quickly while a
 * node that one slow prober suspects gets time to refute.
 */
export class Suspicion {
  readonly #confirmers = new Set<string>();
  readonly #startMs: number;
  #cancel: Cancel;

  /**
   * @param k confirmations expected; 0 means the timer runs at `minMs` from the start
   * @param from the member that raised the suspicion (does not count as a confirmation)
   */
  constructor(
    private readonly clock: Clock,
    from: string,
    private readonly k: number,
    private readonly minMs: number,
    private readonly maxMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.#startMs = clock.now();
    this.#confirmers.add(from);
    this.#cancel = clock.setTimeout(onTimeout, k < 1 ? minMs : maxMs);
  }

  /** Records a confirmation; returns true when it was new (so it is worth re-gossiping). */
  confirm(from: string): boolean {
    if (this.k < 1 || this.#confirmers.has(from) || this.#confirmers.size > this.k) return false;
    this.#confirmers.add(from);
    const elapsed = this.clock.now() - this.#startMs;
    const remaining = Math.max(
      0,
      remainingSuspicionMs(this.#confirmers.size - 1, this.k, elapsed, this.minMs, this.maxMs),
    );
    this.#cancel();
    this.#cancel = this.clock.setTimeout(this.onTimeout, remaining);
    return true;
  }

  stop(): void {
    this.#cancel();
  }
}

/** max − (ln(c+1)/ln(k+1))·(max − min), never below min, minus time already waited. */
export function remainingSuspicionMs(c: number, k: number, elapsedMs: number, minMs: number, maxMs: number): number {
  const frac = Math.log(c + 1) / Math.log(k + 1);
  const timeout = Math.max(minMs, Math.floor(maxMs - frac * (maxMs - minMs)));
  return timeout - elapsedMs;
}

/** min = mult × max(1, log10(n)) × probeInterval, as in memberlist's suspicionTimeout. */
export function suspicionMinMs(suspicionMult: number, n: number, probeIntervalMs: number): number {
  const scale = Math.max(1, Math.log10(Math.max(1, n)));
  return Math.floor(suspicionMult * scale * probeIntervalMs);
}
