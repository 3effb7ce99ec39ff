import type { Clock, Logger, Random } from '@ward/base';
import type { Storage } from '../../logical/storage.js';

/** What the core does when a lease ends or is renewed: route to the token store or the backend. */
export interface LeaseRevoker {
  /**
   * Revokes what the lease grants (a token, a database user). Must be idempotent: after a
   * crash between revoking and deleting the lease, it runs again on restore. A throw counts
   * as a failed attempt (retried with backoff when automatic, reported when requested).
   */
  revoke(lease: Readonly<LeaseEntry>): Promise<void>;
  /** Asks the backend to extend a secret; the answer is capped by the lease's max TTL. Absent: the increment is granted as is. */
  renew?(lease: Readonly<LeaseEntry>, incrementSeconds: number): Promise<{ ttlSeconds: number }>;
}

export interface ExpirationManagerOptions {
  /** Where leases persist, behind the barrier: the core passes the view `sys/expire/`. */
  storage: Storage;
  clock: Clock;
  random: Random;
  logger: Logger;
  revoker: LeaseRevoker;
  /**
   * Names a token accessor in storage keys (the token store's salted digest): keys are not
   * encrypted, so the by-token index must not hold accessors. Called only after `restore` began.
   */
  accessorDigest: (accessor: string) => string;
  /** Automatic revocations running at once (default 64). */
  maxConcurrentRevocations?: number;
}

export interface RegisterLeaseOptions {
  /** The request path that produced the lease; trailing `/` are dropped. */
  path: string;
  /** 0 = never expires. */
  ttlSeconds: number;
  /** Hard cap from issue time on expiry and renewals; 0 or absent = none. */
  maxTtlSeconds?: number;
  renewable: boolean;
  kind: LeaseKind;
  /** The token the lease belongs to (for a token lease, that token's own accessor). */
  tokenAccessor?: string;
  /** Opaque data the revoker gets back. */
  secret?: Record<string, unknown> | null;
  namespace?: string;
  /** Last segment of the id instead of 24 random base62 characters (token leases: the token's hash). */
  idSuffix?: string;
}

export interface RenewResult {
  ttlSeconds: number;
  /** What the backend (or the increment) asked for, before the max TTL cap. */
  requestedTtlSeconds: number;
  /** The TTL was cut to `maxValidSeconds` (callers add the established warning). */
  capped: boolean;
  maxValidSeconds: number;
  renewable: boolean;
}

export interface RevokeOptions {
  /** `false`: mark for revocation and return; the timer revokes (with retries). Default `true`. */
  sync?: boolean;
  /** Ignore revoker errors and delete the lease anyway (revoke-force). */
  force?: boolean;
}

/** What a lease stands for: a token's lifetime, or a secret a backend handed out. */
export type LeaseKind = 'token' | 'secret';

/**
 * One lease as it is persisted (JSON, behind the barrier). Wire names keep the snake_case of
 * the established servers' lease entries. Times are epoch milliseconds; 0 means "none".
 */
export interface LeaseEntry {
  /** `<path>/<suffix>`: 24 base62 characters for secrets, the token's hash for tokens. May contain `/`. */
  lease_id: string;
  /** The request path that created the lease (`database/creds/ro`, `auth/token/create`). */
  path: string;
  /** Namespace path of the lease (`''` = root). */
  namespace: string;
  issue_time_ms: number;
  /** 0 = never expires (such a lease is never revoked by the timer). */
  expire_time_ms: number;
  /** Hard cap on `expire_time_ms` from the caller's max TTL; 0 = no cap. */
  max_expire_time_ms: number;
  /** 0 = never renewed. */
  last_renewal_ms: number;
  renewable: boolean;
  kind: LeaseKind;
  /** Accessor of the token the lease belongs to (for a token lease: the token itself); `''` for none. */
  token_accessor: string;
  /** Opaque data the revoker needs to revoke or renew (a backend's internal secret data). */
  secret: Record<string, unknown> | null;
  /** Failed automatic revocations so far. */
  revoke_attempts: number;
  /** The last revocation error, truncated to `REVOKE_ERROR_MAX_CHARS`; `''` when none. */
  revoke_error: string;
  /** Revocation failed `MAX_REVOKE_ATTEMPTS` times: kept, reported, no longer retried. */
  irrevocable: boolean;
}
