/** The server version reported by status endpoints; kept in step with packages/secrets/package.json. */
export const VERSION = '0.1.0';

/** Reported as `build_date` by `sys/seal-status` (established clients expect the field). */
export const BUILD_DATE = '2026-11-22T00:00:00Z';
