import { formatDurationSeconds } from '@ward/base';
import type { StoredSecret } from '../framework/index.js';
import { InternalError } from '../logical/errors.js';
import type { IssuedSecret, LogicalResponse } from '../logical/response.js';
import type { ExpirationManager, LeaseEntry } from './expiration/index.js';
import type { Route, Router } from './router/router.js';
import type { SystemTtls } from './router/system-ttls.js';

/** Where a secret was issued: the route that served it and the request's full path. */
export interface SecretSite {
  route: Route;
  /** The request path with its namespace (`ns1/db/creds/ro`): unmounting revokes by that prefix. */
  fullPath: string;
  namespacePath: string;
  /** Accessor of the caller's token: revoking the token revokes the lease. */
  tokenAccessor: string;
  /** Where the mount sets no TTL: the configuration's `default_lease_ttl` and `max_lease_ttl`. */
  systemTtls: SystemTtls;
}

/**
 * Registers the lease of a secret a handler issued and answers with the envelope's lease
 * fields. TTL: the handler's, else the type's default, else the mount's; capped by the
 * type's max and the mount's max (with the established warning). If the lease cannot be
 * registered the secret is revoked at once: nobody could ever revoke it otherwise.
 */
export async function leaseSecret(
  expiration: ExpirationManager,
  response: LogicalResponse & { secret: IssuedSecret },
  site: SecretSite,
): Promise<LogicalResponse> {
  const { secret, ...rest } = response;
  const { backend, entry } = site.route;
  const type = backend.secretType(secret.type);
  if (!type) throw new InternalError(`${backend.type}: handler issued a secret of undeclared type "${secret.type}"`);
  const mountMax = entry.config.max_lease_ttl || site.systemTtls.maxLeaseTtlSeconds;
  const maxTtlSeconds = Math.min(type.maxTtlSeconds || mountMax, mountMax);
  const requested =
    secret.ttlSeconds ||
    type.defaultTtlSeconds ||
    entry.config.default_lease_ttl ||
    site.systemTtls.defaultLeaseTtlSeconds;
  const ttlSeconds = Math.min(requested, maxTtlSeconds);
  const internal = secret.internal ?? {};
  let leaseId: string;
  try {
    leaseId = await expiration.register({
      path: site.fullPath,
      ttlSeconds,
      maxTtlSeconds,
      renewable: type.renew !== undefined,
      kind: 'secret',
      tokenAccessor: site.tokenAccessor,
      secret: { type: secret.type, internal },
      namespace: site.namespacePath,
    });
  } catch (err) {
    await backend.revokeSecret({ leaseId: '', type: secret.type, internal }).catch(() => undefined);
    throw err;
  }
  if (type.leased) await backend.secretLeased({ leaseId, type: secret.type, internal });
  const warnings = [...(rest.warnings ?? [])];
  if (requested > ttlSeconds) {
    warnings.push(
      `TTL of "${formatDurationSeconds(requested)}" exceeded the effective max_ttl of "${formatDurationSeconds(ttlSeconds)}"; TTL value is capped accordingly`,
    );
  }
  return {
    ...rest,
    data: secret.data,
    lease: { leaseId, leaseDurationSeconds: ttlSeconds, renewable: type.renew !== undefined },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** A secret lease as its backend sees it; throws for a lease stored without a type. */
function storedSecret(lease: Readonly<LeaseEntry>): StoredSecret {
  const stored = lease.secret ?? {};
  if (typeof stored.type !== 'string') throw new InternalError(`lease ${lease.lease_id} names no secret type`);
  const internal = (stored.internal ?? {}) as Record<string, unknown>;
  return { leaseId: lease.lease_id, type: stored.type, internal };
}

/**
 * The backend that issued a secret lease: the mount its path falls under now. Throws while
 * that mount is missing, so the revocation is retried (unmounting revokes its leases first).
 */
function issuer(router: Router, lease: Readonly<LeaseEntry>) {
  return router.match(lease.path).route.backend;
}

/** Revocation of a secret lease: the issuing backend's secret type ends it upstream. */
export function revokeSecretLease(router: Router, lease: Readonly<LeaseEntry>): Promise<void> {
  return issuer(router, lease).revokeSecret(storedSecret(lease));
}

/** Renewal of a secret lease: the issuing backend's secret type decides the TTL. */
export async function renewSecretLease(
  router: Router,
  lease: Readonly<LeaseEntry>,
  incrementSeconds: number,
): Promise<{ ttlSeconds: number }> {
  const granted = await issuer(router, lease).renewSecret(storedSecret(lease), incrementSeconds);
  return { ttlSeconds: granted?.ttlSeconds ?? 0 };
}
