import { createUserpassBackend } from './auth/userpass/index.js';
import type { BackendFactory } from './core/router/mounts.js';
import { createKvBackend } from './engines/kv/backend.js';
import { createTotpBackend } from './engines/totp/backend.js';

/**
 * Every mountable engine and auth method by type. The only file that imports them
 * all: the core gets this map and never imports an engine itself.
 */
export const BUILTIN_BACKENDS: Record<string, BackendFactory> = {
  kv: createKvBackend,
  totp: createTotpBackend,
  userpass: createUserpassBackend,
};

/** `secret/` is a KV version 2 engine on every new server (spec 000: a fresh install has `kv` at `secret/`). */
export const DEFAULT_MOUNTS = [
  { path: 'secret/', input: { type: 'kv', description: 'key/value secret storage', options: { version: '2' } } },
];
