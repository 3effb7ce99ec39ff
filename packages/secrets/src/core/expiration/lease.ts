import { createHash } from 'node:crypto';
import type { LeaseEntry, RegisterLeaseOptions } from './types.js';

export type { LeaseEntry, LeaseKind } from './types.js';

/** Longest `revoke_error` kept: backend errors can be long, and every lookup shows it. */
export const REVOKE_ERROR_MAX_CHARS = 240;

/**
 * Storage layout inside the expiration manager's view (the core passes `sys/expire/`):
 *   `id/<sha256(lease_id) hex>`                    the `LeaseEntry` as JSON
 *   `token/<digest(accessor)>/<sha256(lease_id) hex>`  the lease id (JSON string): the by-token index
 *   `index-layout`                                 `{ layout: 2 }` once the index holds digests only
 * Stores written before layout 2 hold `token/<accessor>/…`; `LeaseStore.migrateIndex` moves them.
 * Lease IDs contain `/` and come from request paths, so they are hashed into one flat,
 * fixed-length segment: no key can climb out of the view or collide with a "directory".
 */
export function leaseKey(leaseId: string, hash = hashLeaseId(leaseId)): string {
  return `id/${hash}`;
}

/** Prefix of the by-token index of one token, named by the salted digest of its accessor (hex). */
export function tokenIndexPrefix(accessorDigest: string): string {
  return `token/${accessorDigest}/`;
}

export function tokenIndexKey(accessorDigest: string, leaseId: string, hash = hashLeaseId(leaseId)): string {
  return tokenIndexPrefix(accessorDigest) + hash;
}

/** The fixed-length storage name of a lease id (computed once when both keys are needed). */
export function hashLeaseId(leaseId: string): string {
  return createHash('sha256').update(leaseId).digest('hex');
}

/** Truncates a revocation error for `revoke_error`. */
export function revokeErrorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > REVOKE_ERROR_MAX_CHARS ? text.slice(0, REVOKE_ERROR_MAX_CHARS) : text;
}

/** Whole seconds left before expiry, as established lookups compute it (now rounded to the second); 0 for no expiry. */
export function remainingTtlSeconds(entry: LeaseEntry, nowMs: number): number {
  if (entry.expire_time_ms === 0) return 0;
  return Math.trunc((entry.expire_time_ms - Math.round(nowMs / 1000) * 1000) / 1000);
}

/** Checks a lease parses as a `LeaseEntry` (storage is trusted, but an old or damaged entry must not crash restore). */
export function isLeaseEntry(value: unknown): value is LeaseEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.lease_id === 'string' &&
    typeof e.path === 'string' &&
    typeof e.expire_time_ms === 'number' &&
    typeof e.issue_time_ms === 'number' &&
    (e.kind === 'token' || e.kind === 'secret')
  );
}

/** A new lease entry at `nowMs`; the TTL is capped by the max TTL (a TTL of 0 with a max TTL expires at the max). */
export function newEntry(leaseId: string, path: string, o: RegisterLeaseOptions, nowMs: number): LeaseEntry {
  const maxExpire = o.maxTtlSeconds ? nowMs + o.maxTtlSeconds * 1000 : 0;
  let expire = o.ttlSeconds > 0 ? nowMs + o.ttlSeconds * 1000 : 0;
  if (maxExpire !== 0 && (expire === 0 || expire > maxExpire)) expire = maxExpire;
  return {
    lease_id: leaseId,
    path,
    namespace: o.namespace ?? '',
    issue_time_ms: nowMs,
    expire_time_ms: expire,
    max_expire_time_ms: maxExpire,
    last_renewal_ms: 0,
    renewable: o.renewable,
    kind: o.kind,
    token_accessor: o.tokenAccessor ?? '',
    secret: o.secret ?? null,
    revoke_attempts: 0,
    revoke_error: '',
    irrevocable: false,
  };
}

/** When a restored lease next needs attention; `undefined` for one that never expires or is irrevocable. */
export function dueOf(entry: LeaseEntry): number | undefined {
  return entry.irrevocable || entry.expire_time_ms === 0 ? undefined : entry.expire_time_ms;
}
