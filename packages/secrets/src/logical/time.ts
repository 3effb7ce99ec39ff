/**
 * Formats epoch milliseconds the way Go's RFC3339Nano does (what established clients parse):
 * UTC, fraction without trailing zeros, no fraction at all on a whole second.
 */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d*?)0*Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

/**
 * RFC 3339 in UTC with nine fractional digits, for the timestamps spec 000 gives nanosecond precision
 * (entities, aliases, groups, KV versions). `ms` comes from `Clock.nowPrecise()`, which has
 * microseconds, so the last three digits are zeros. Always nine digits, so a reader can count on them.
 */
export function rfc3339Precise(ms: number): string {
  const wholeMs = Math.floor(ms);
  const micros = Math.min(999, Math.floor((ms - wholeMs) * 1000));
  return new Date(wholeMs).toISOString().replace('Z', `${String(micros).padStart(3, '0')}000Z`);
}
