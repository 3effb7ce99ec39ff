import { RESPONSE_WRAPPING_POLICY } from '../policy/builtin-policies.js';
import type { PlannedToken } from './token-create.js';

/** What a response-wrapping token is made from. */
export interface WrappingTokenRequest {
  ttlSeconds: number;
  /** The request path whose response the token wraps (`wrap_info.creation_path`). */
  creationPath: string;
  namespaceId: string;
  nowMs: number;
}

/**
 * A response-wrapping token, as established: an orphan service token with the `response-wrapping`
 * policy alone (its cubbyhole's `response` and `sys/wrapping/unwrap`), one use, not renewable, gone
 * after `ttlSeconds` at the latest. Its `path` records what it wraps.
 */
export function planWrappingToken(req: WrappingTokenRequest): PlannedToken {
  const { ttlSeconds, nowMs } = req;
  return {
    entry: {
      parent_accessor: '',
      policies: [RESPONSE_WRAPPING_POLICY],
      path: req.creationPath,
      meta: null,
      display_name: '',
      num_uses: 1,
      creation_time_ms: nowMs,
      creation_ttl: ttlSeconds,
      ttl: ttlSeconds,
      explicit_max_ttl: ttlSeconds,
      period: 0,
      renewable: false,
      type: 'service',
      bound_cidrs: [],
      role: '',
      entity_id: '',
      namespace_id: req.namespaceId,
      orphan: true,
      last_renewal_time_ms: 0,
      expire_time_ms: nowMs + ttlSeconds * 1000,
    },
    warnings: [],
  };
}

/** Whether `policies` are those of a response-wrapping token. */
export function isWrappingToken(policies: readonly string[]): boolean {
  return policies.length === 1 && policies[0] === RESPONSE_WRAPPING_POLICY;
}
