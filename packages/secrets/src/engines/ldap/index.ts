// What the LDAP auth method shares with the directory engine: the pooled, bound connections and
// the one way to connect (URL failover, StartTLS, TLS settings).
export { createLdapBackend } from './backend.js';
export { checkConfig, parseUrls } from './config-rules.js';
export type { LdapConfig } from './config-store.js';
export { ConnectionPool } from './connection-pool.js';
export { connectBound, upstream } from './directory.js';
export type { Directory, DirectorySearch } from './directory-ops.js';
export type { DerefAliases } from './ldap-client.js';
