/** The server version reported by status endpoints; kept in step with packages/secrets/package.json. */
export const VERSION = '0.1.0';
