import type { Storage } from '../logical/storage.js';

/** What a secret type's `renew` and `revoke` get. */
export interface SecretCall {
  /** The mount's storage. */
  storage: Storage;
  leaseId: string;
  /** The `internal` data the handler issued the secret with, as stored with the lease. */
  internal: Record<string, unknown>;
}

/**
 * A kind of secret a backend leases (a database user, a cloud key): how long it lives and
 * how to extend and end it. `renew` and `revoke` are called by the core long after the
 * request that issued the secret (renewals, expiry, revocation, unmount, a token's
 * revocation, after restarts), so they get only the stored `internal` data.
 */
export interface SecretType {
  /** The name handlers give in `secret.type`. */
  type: string;
  /** TTL when the handler asks for none; 0 or absent: the mount's default. */
  defaultTtlSeconds?: number;
  /** Cap on the TTL and on renewals, from issue; 0 or absent: the mount's max only. */
  maxTtlSeconds?: number;
  /**
   * Extends the secret upstream. Resolves the TTL granted (0 or nothing: the increment the
   * caller asked for); throw to refuse. Absent: leases of this type are not renewable.
   */
  renew?(call: SecretCall & { incrementSeconds: number }): Promise<{ ttlSeconds: number } | undefined>;
  /**
   * Ends the secret upstream. Must be idempotent: after a crash it may run again. A throw
   * fails the revocation: automatic ones retry with backoff, requested ones answer the error.
   */
  revoke(call: SecretCall): Promise<void>;
  /**
   * Called once the lease is stored and before the answer leaves, for a type that keeps a
   * write-ahead record of what it created upstream until a lease will end it. A throw fails the
   * request (the caller never sees the secret; the lease still ends it).
   */
  leased?(call: SecretCall): Promise<void>;
}

/** A lease's secret as the core stores it and hands it back to the backend. */
export interface StoredSecret {
  leaseId: string;
  type: string;
  internal: Record<string, unknown>;
}
