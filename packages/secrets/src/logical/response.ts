import type { SecretAuth, WrapInfo } from '@ward/secrets-client';

/** `auth` block of a login or token-creation response: the wire type of `@ward/secrets-client`. */
export type AuthResponse = SecretAuth;

/** The lease fields of the envelope (KV reports a TTL without registering a lease). */
export interface SecretLease {
  leaseId: string;
  leaseDurationSeconds: number;
  renewable: boolean;
}

/**
 * A secret a handler hands out under a lease; its `type` is one the backend declares in
 * `BackendSpec.secrets`. The core mints the lease id (`<mount><request path>/<random>`),
 * applies the type's and the mount's TTL limits, registers the lease (owned by the
 * caller's token) and answers with `data` and the lease fields in the envelope.
 */
export interface IssuedSecret {
  type: string;
  /** What the caller receives (the envelope's `data`). */
  data: Record<string, unknown>;
  /** Kept with the lease, never shown: what the type's `renew` and `revoke` need (the user to drop). */
  internal?: Record<string, unknown>;
  /** The TTL asked for; absent or 0: the type's default, else the mount's. */
  ttlSeconds?: number;
}

/** What a backend handler returns; `undefined` means "done, nothing to say" (HTTP 204). */
export interface LogicalResponse {
  data?: Record<string, unknown> | null;
  warnings?: string[];
  auth?: AuthResponse;
  /** Set by an auth method's login handler; the core replaces it with `auth` (a real token). */
  login?: LoginGrant;
  /** Set by a handler that hands out a leased secret; the core replaces it with `data` and `lease`. */
  secret?: IssuedSecret;
  /** `lease_id`, `lease_duration` and `renewable` of the envelope. */
  lease?: SecretLease;
  /** Some `sys/` routes also copy `data` to the top level of the envelope, as established clients expect. */
  dataAtTopLevel?: boolean;
  /**
   * Send this status with the normal envelope instead of 200 (KV v2 answers a deleted
   * version with 404 and the full envelope, not the error envelope).
   */
  status?: number;
  /**
   * Send `body` as is, without the envelope (init, seal-status, health, help). With
   * `contentType`, `body` is text sent under that media type (Prometheus metrics); with
   * `stream` too, the stream's bytes are sent instead and `body` is what the audit log shows.
   */
  raw?: {
    status: number;
    body: unknown;
    contentType?: string;
    stream?: AsyncIterable<Uint8Array>;
    /** Headers of the answer (ACME's `Replay-Nonce`, `Location`, `Link`). */
    headers?: Record<string, string>;
  };
  /** Set by the core when it wrapped the response: the envelope then carries only this. */
  wrapInfo?: WrapInfo;
}

/** The envelope's `wrap_info`: how to get a wrapped response back (`sys/wrapping/unwrap`). */
export type { WrapInfo };

/**
 * What an auth method answers a successful login with: the facts of the token to issue.
 * The core turns it into a real token (policies sanitised, `default` added, TTLs against
 * the mount), binds it to the identity entity of `(mount accessor, aliasName)`, and sends
 * the `auth` block. Durations in seconds; 0 = not set.
 */
export interface LoginGrant {
  /** The caller's name at this mount (userpass: the lower-cased username); the entity alias name. */
  aliasName: string;
  /** Appended to the mount's name in the token's display name (`userpass-alice`). */
  displayName: string;
  /**
   * Names of the caller's groups at the method (LDAP groups, an OIDC groups claim): the entity
   * becomes a member of the external groups with these aliases at the mount, and of no others there.
   */
  groupAliases?: string[];
  policies: string[];
  metadata: Record<string, string>;
  /** Set by methods with `enable_identity_alias_metadata`: the entity alias's metadata becomes this. */
  aliasMetadata?: Record<string, string>;
  ttl: number;
  maxTtl: number;
  explicitMaxTtl: number;
  period: number;
  numUses: number;
  /** Normalised CIDR blocks: the login is refused from elsewhere, and the token is bound to them. */
  boundCidrs: string[];
  /** `default` lets the mount decide (service unless tuned). */
  tokenType: 'default' | 'service' | 'batch';
  noDefaultPolicy: boolean;
}

/** What the core tells an auth method when a token it issued is renewed. */
export interface LoginRenewRequest {
  /** The token's metadata as issued (userpass: `{ username }`). */
  metadata: Record<string, string>;
  /** The token's own policies (sanitised, `default` included unless suppressed). */
  policies: readonly string[];
}

/** The method's current limits for a renewed token, in seconds (0 = not set). */
export interface LoginRenewal {
  ttl: number;
  maxTtl: number;
  period: number;
}

/** One locked-out login of an auth method (`sys/locked-users`). */
export interface LockedUser {
  /** The alias name (userpass: the username). */
  aliasName: string;
  lockedSinceMs: number;
}

/** An auth method that locks out users after repeated failed logins. */
export interface LockoutControl {
  lockedUsers(): LockedUser[];
  /** Clears the lock and the failure count of `aliasName`; unknown names are ignored. */
  unlockUser(aliasName: string): void;
}
