import type { TokenLookupData } from '@ward/secrets-client';
import type { TokenEntry } from '../../core/tokens/index.js';
import { rfc3339Nano } from '../../logical/time.js';
import type { TokenIdentity } from './deps.js';

/**
 * The `data` of a token lookup, with the established names and types. `id` is the token
 * text when the caller supplied it, `''` for lookups by accessor (never revealed). `identity` is
 * the token's entity as resolved now (after merges), which replaces the stored `entity_id`.
 */
export function lookupData(entry: TokenEntry, id: string, nowMs: number, identity?: TokenIdentity): TokenLookupData {
  const data: TokenLookupData = {
    accessor: entry.accessor,
    creation_time: Math.floor(entry.creation_time_ms / 1000),
    creation_ttl: entry.creation_ttl,
    display_name: entry.display_name,
    entity_id: identity?.entityId ?? entry.entity_id,
    expire_time: entry.expire_time_ms > 0 ? rfc3339Nano(entry.expire_time_ms) : null,
    explicit_max_ttl: entry.explicit_max_ttl,
    id,
    issue_time: rfc3339Nano(entry.creation_time_ms),
    meta: entry.meta,
    num_uses: Math.max(0, entry.num_uses),
    orphan: entry.orphan,
    path: entry.path,
    policies: entry.policies,
    renewable: entry.renewable,
    ttl: entry.expire_time_ms > 0 ? Math.max(0, Math.floor((entry.expire_time_ms - nowMs) / 1000)) : 0,
    type: entry.type,
  };
  if (identity && identity.policies.length > 0) data.identity_policies = identity.policies;
  if (entry.role) data.role = entry.role;
  if (entry.period > 0) data.period = entry.period;
  if (entry.bound_cidrs.length > 0) data.bound_cidrs = entry.bound_cidrs;
  if (entry.last_renewal_time_ms > 0) {
    data.last_renewal_time = Math.floor(entry.last_renewal_time_ms / 1000);
    data.last_renewal = rfc3339Nano(entry.last_renewal_time_ms);
  }
  return data;
}
