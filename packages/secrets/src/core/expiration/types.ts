import type { Clock, Logger, Random } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import type { LeaseEntry, LeaseKind } from './lease.js';

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
