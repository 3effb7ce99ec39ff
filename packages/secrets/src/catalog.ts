import { createAppRoleBackend } from './auth/approle/index.js';
import { createGcpBackend } from './auth/gcp/index.js';
import { createGitHubBackend } from './auth/github/index.js';
import { createUserpassBackend } from './auth/userpass/index.js';
import type { BackendCatalog } from './core/router/mounts.js';
import { createKvBackend } from './engines/kv/backend.js';
import { createLdapBackend } from './engines/ldap/backend.js';
import { createPkiBackend } from './engines/pki/backend.js';
import { createTotpBackend } from './engines/totp/backend.js';
import { createTransitBackend } from './engines/transit/backend.js';

/**
 * Every mountable secrets engine (`sys/mounts`) and auth method (`sys/auth`) by type. The
 * only file that imports them all: the core gets this map and never imports one itself.
 */
export const BUILTIN_BACKENDS: BackendCatalog = {
  mounts: new Map([
    ['kv', createKvBackend],
    ['ldap', createLdapBackend],
    // The established plugin's name for the same engine.
    ['openldap', createLdapBackend],
    ['pki', createPkiBackend],
    ['totp', createTotpBackend],
    ['transit', createTransitBackend],
  ]),
  auth: new Map([
    ['approle', createAppRoleBackend],
    ['gcp', createGcpBackend],
    ['github', createGitHubBackend],
    ['userpass', createUserpassBackend],
  ]),
};

/** `secret/` is a KV version 2 engine on every new server (spec 000: a fresh install has `kv` at `secret/`). */
export const DEFAULT_MOUNTS = [
  { path: 'secret/', input: { type: 'kv', description: 'key/value secret storage', options: { version: '2' } } },
];
