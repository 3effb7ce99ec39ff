/** An RFC 3339 time as the UI shows it: `2026-12-02 02:47:11 UTC` (empty stays empty). */
export function formatTime(rfc3339: string): string {
  if (!rfc3339) return '';
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime()) || d.getTime() <= 0) return rfc3339;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Seconds as the server's duration text: `3600` → `1h`, `90` → `1m30s`, `0` → `0s` (base's printer, as the CLI's). */
export { formatDurationShort as formatSeconds } from '@ward/base/duration-format';
