/**
 * Formats epoch milliseconds the way Go's RFC3339Nano does (what established clients parse):
 * UTC, fraction without trailing zeros, no fraction at all on a whole second.
 */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d*?)0*Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}
