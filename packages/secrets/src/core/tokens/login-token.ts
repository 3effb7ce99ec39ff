import { sanitizePolicies } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LoginGrant } from '../../logical/response.js';
import type { PlannedToken } from './token-create.js';
import type { TokenType } from './token-entry.js';
import { calculateTtl, type MountTtls } from './token-ttl.js';

/** Where a login happened and under which limits. */
export interface LoginContext {
  /** The login request path relative to its namespace (`auth/userpass/login/alice`): the token's `path`. */
  path: string;
  /** The auth mount's point relative to its namespace (`auth/userpass/`). */
  mountPoint: string;
  mount: MountTtls;
  nowMs: number;
  namespaceId: string;
  /** The mount's tuned `token_type`: `default-service` (when absent), `default-batch`, `service` or `batch`. */
  mountTokenType?: string;
}

/**
 * The established table: a mount forcing `service` or `batch` wins; otherwise the user's
 * `service` or `batch` wins; `default` takes the mount's default kind.
 */
export function loginTokenType(asked: LoginGrant['tokenType'], mountTokenType = 'default-service'): TokenType {
  if (mountTokenType === 'service' || mountTokenType === 'batch') return mountTokenType;
  if (asked === 'service' || asked === 'batch') return asked;
  return mountTokenType === 'default-batch' ? 'batch' : 'service';
}

/**
 * The token a login grant becomes, under the established login rules: an orphan, display
 * name `<mount>-<name>` (`userpass-alice`), policies sanitised with `default` added unless
 * suppressed, never `root` (`auth methods cannot create root tokens`), TTL from the grant
 * against the mount. Throws `InvalidRequestError` when a rule refuses the grant.
 */
export function planLoginToken(grant: LoginGrant, ctx: LoginContext): PlannedToken {
  let policies = sanitizePolicies(grant.policies, !grant.noDefaultPolicy);
  if (grant.noDefaultPolicy) policies = policies.filter((p) => p !== 'default');
  if (policies.includes('root')) throw new InvalidRequestError('auth methods cannot create root tokens');
  const type = loginTokenType(grant.tokenType, ctx.mountTokenType);
  if (type === 'batch' && grant.period > 0) {
    throw new InvalidRequestError(
      "'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens",
    );
  }
  if (type === 'batch' && grant.numUses > 0) {
    throw new InvalidRequestError(
      "'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count",
    );
  }
  const { ttlSeconds: ttl, warnings } = calculateTtl({
    mount: ctx.mount,
    nowMs: ctx.nowMs,
    startMs: ctx.nowMs,
    requested: 0,
    backendTtl: grant.ttl,
    backendMaxTtl: grant.maxTtl,
    explicitMaxTtl: grant.explicitMaxTtl,
    period: grant.period,
  });
  return {
    entry: {
      parent_accessor: '',
      policies,
      path: ctx.path,
      meta: Object.keys(grant.metadata).length > 0 ? { ...grant.metadata } : null,
      display_name: loginDisplayName(ctx.mountPoint, grant.displayName),
      num_uses: grant.numUses,
      creation_time_ms: ctx.nowMs,
      creation_ttl: ttl,
      ttl,
      explicit_max_ttl: grant.explicitMaxTtl,
      period: grant.period,
      renewable: type === 'service' && ttl > 0,
      type,
      bound_cidrs: [...grant.boundCidrs],
      role: '',
      entity_id: '',
      namespace_id: ctx.namespaceId,
      orphan: true,
      last_renewal_time_ms: 0,
      expire_time_ms: ttl > 0 ? ctx.nowMs + ttl * 1000 : 0,
    },
    warnings,
  };
}

/**
 * `auth/userpass/` + `alice` → `userpass-alice`: the mount path without `auth/`, `/` as `-`.
 * A method that names no one (AppRole) gets the bare mount name: `auth/approle/` → `approle`.
 */
export function loginDisplayName(mountPoint: string, name: string): string {
  const source = mountPoint.replace(/^auth\//, '').replace(/\//g, '-');
  return name ? `${source}${name}` : source.replace(/-$/, '');
}
