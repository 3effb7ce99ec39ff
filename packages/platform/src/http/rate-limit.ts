/** What a client learns from the `X-RateLimit-*` headers after one request. */
export interface RateLimitState {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window after this one (0 when refused). */
  remaining: number;
  /** When the current window ends, in clock milliseconds. */
  resetAtMs: number;
  /** Whether this request is over the limit (answered 429). */
  isLimited: boolean;
}

/**
 * Counts requests per key (a token's hash, or the client address without a token) in fixed
 * one-second windows of the injected clock.
 */
export interface RateLimiter {
  /**
   * Counts one request by `key` at `nowMs` and tells whether it is within the limit. A refused
   * request counts too, so a client hammering past the limit stays refused until the window ends.
   * `key` may hold a token: an implementation that stores keys outside memory stores a hash.
   * The in-memory one answers at once (no promise), sparing the hot path a tick.
   */
  hit(key: string, nowMs: number): RateLimitState | Promise<RateLimitState>;
}

export const RATE_LIMIT_WINDOW_MS = 1000;

/** The window `nowMs` falls in, as its start in milliseconds. */
export const windowStartMs = (nowMs: number): number => Math.floor(nowMs / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;

/** The state after the `count`-th request of the window starting at `startMs`. */
export function rateLimitState(limit: number, count: number, startMs: number): RateLimitState {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetAtMs: startMs + RATE_LIMIT_WINDOW_MS,
    isLimited: count > limit,
  };
}

/** Past this many keys in one window the table is swept of older windows. */
const SWEEP_AT_KEYS = 10_000;

/**
 * Counters in this process's memory: right for SQLite, where one process serves the database.
 * Processes sharing a PostgreSQL database count in the database instead
 * (`createDatabaseRateLimiter`). Keys stay in memory only, like the response cache's.
 */
export function createMemoryRateLimiter(limit: number): RateLimiter {
  const windows = new Map<string, { startMs: number; count: number }>();
  return {
    hit(key, nowMs) {
      const startMs = windowStartMs(nowMs);
      let entry = windows.get(key);
      if (!entry || entry.startMs !== startMs) {
        if (windows.size >= SWEEP_AT_KEYS) {
          for (const [k, e] of windows) if (e.startMs !== startMs) windows.delete(k);
        }
        entry = { startMs, count: 0 };
        windows.set(key, entry);
      }
      entry.count++;
      return rateLimitState(limit, entry.count, startMs);
    },
  };
}

/** The `X-RateLimit-*` headers (and `Retry-After` when refused) for a state at `nowMs`. */
export function rateLimitHeaders(state: RateLimitState, nowMs: number): Record<string, string> {
  const resetSeconds = Math.max(0, state.resetAtMs - nowMs) / 1000;
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    // Seconds until the window ends, fractional, as the established API sends and go-tfe parses it.
    'x-ratelimit-reset': resetSeconds.toFixed(3),
  };
  // Retry-After takes whole seconds; rounding up never invites a retry that is refused again.
  if (state.isLimited) headers['retry-after'] = String(Math.max(1, Math.ceil(resetSeconds)));
  return headers;
}
