import { RATE_LIMIT_WINDOW_MS, type RateLimiter, rateLimitState, windowStartMs } from '../http/rate-limit.js';
import type { Sql } from './sql.js';
import { sha256 } from './tokens.js';

/** Windows older than this are swept; only the current one is ever read. */
const KEEP_WINDOWS_MS = 10 * RATE_LIMIT_WINDOW_MS;

/**
 * Counters in the database, so that every process on it (PostgreSQL) counts against the same
 * limit: one upsert per request, which returns the window's count after this request.
 */
export function createDatabaseRateLimiter(sql: Sql, limit: number): RateLimiter {
  let sweptWindowMs = 0;
  return {
    async hit(key, nowMs) {
      const startMs = windowStartMs(nowMs);
      if (startMs !== sweptWindowMs) {
        // Once per window per process keeps the table at about one row per active key.
        sweptWindowMs = startMs;
        await sql.run('DELETE FROM rate_limit_windows WHERE window_start < ?', [startMs - KEEP_WINDOWS_MS]);
      }
      const row = await sql.get<{ count: number }>(
        `INSERT INTO rate_limit_windows (key, window_start, count) VALUES (?, ?, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
         RETURNING count`,
        // Keys may hold a token; the table holds only its hash.
        [sha256(key), startMs],
      );
      return rateLimitState(limit, row?.count ?? 1, startMs);
    },
  };
}
