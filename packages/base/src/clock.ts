/** Cancels a pending timer; calling it twice is harmless. */
export type Cancel = () => void;

/**
 * Time as the code sees it. Everything time-based (token expiry, lease timers,
 * TOTP periods, gossip probes, snapshot schedules) reads this instead of
 * `Date.now()`, so tests can move time without sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * `now()` with the sub-millisecond part the platform's clock has, as a fraction: for timestamps
   * shown to clients, which established servers print to the nanosecond. Timers and arithmetic use
   * `now()`.
   */
  nowPrecise(): number;
  /**
   * Runs `fn` once after `ms` milliseconds of this clock's time. Any delay works, including ones
   * longer than a Node timer holds (a 768 h lease, a 32-day token): callers never cap it themselves.
   */
  setTimeout(fn: () => void, ms: number): Cancel;
}

/** Node fires a timer set for longer than this (about 24.8 days) after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` in steps of at most `stepMs` armed by `arm` (a timer that cannot hold longer), then
 * runs `fn`. The steps count down the delay itself, so they keep the timer's monotonic time.
 */
export function steppedTimeout(
  arm: (fn: () => void, ms: number) => Cancel,
  fn: () => void,
  ms: number,
  stepMs = MAX_TIMER_MS,
): Cancel {
  let remainingMs = ms;
  let cancel: Cancel;
  const next = (): void => {
    if (remainingMs > stepMs) {
      remainingMs -= stepMs;
      cancel = arm(next, stepMs);
    } else {
      cancel = arm(fn, remainingMs);
    }
  };
  next();
  return () => cancel();
}

function nodeTimeout(fn: () => void, ms: number): Cancel {
  const timer = setTimeout(fn, ms);
  // A pending timer must never keep a process alive that was asked to exit.
  timer.unref();
  return () => clearTimeout(timer);
}

export const systemClock: Clock = {
  now: () => Date.now(),
  nowPrecise() {
    const wallMs = Date.now();
    // performance.now() has microseconds but counts from process start on a monotonic clock, so it
    // parts from the wall clock when that is stepped; past a millisecond apart, keep only its fraction.
    const preciseMs = performance.timeOrigin + performance.now();
    return Math.abs(preciseMs - wallMs) < 1 ? preciseMs : wallMs + (preciseMs % 1);
  },
  setTimeout: (fn, ms) => steppedTimeout(nodeTimeout, fn, ms),
};

interface PendingTimer {
  dueMs: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when told to; due timers fire in order during `advance`. */
export class FakeClock implements Clock {
  #nowMs: number;
  #timers: PendingTimer[] = [];
  #seq = 0;

  constructor(start: string | number = '2024-01-01T00:00:00Z') {
    this.#nowMs = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.#nowMs;
  }

  nowPrecise(): number {
    return this.#nowMs;
  }

  setTimeout(fn: () => void, ms: number): Cancel {
    const timer = { dueMs: this.#nowMs + Math.max(0, ms), seq: this.#seq++, fn };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const targetMs = this.#nowMs + ms;
    for (;;) {
      const next = this.#nextDue(targetMs);
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#nowMs = next.dueMs;
      next.fn();
    }
    this.#nowMs = targetMs;
  }

  /** Number of timers not yet fired. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  #nextDue(limitMs: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.#timers) {
      if (t.dueMs > limitMs) continue;
      if (!best || t.dueMs < best.dueMs || (t.dueMs === best.dueMs && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
