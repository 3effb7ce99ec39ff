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
  const second = Math.floor(wholeMs / 1000);
  // Every KV write formats the time: the date and time up to the second change once a second.
  if (second !== lastSecond) {
    const iso = new Date(second * 1000).toISOString();
    lastSecondText = iso.slice(0, iso.length - 4); // without `000Z`, with the `.`
    lastSecond = second;
  }
  return `${lastSecondText}${THREE_DIGITS[wholeMs - second * 1000]}${THREE_DIGITS[micros]}000Z`;
}

let lastSecond = Number.NaN;
let lastSecondText = '';
/** `000` … `999`. */
const THREE_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
