import type { AuthResponse } from '../../logical/response.js';
import type { TokenEntry } from './token-entry.js';

/**
 * The `auth` block of a response that issues or renews a token (create, renew, login); `token`
 * is `''` where the text must not be shown.
 */
export function authResponse(token: string, entry: TokenEntry): AuthResponse {
  return {
    client_token: token,
    accessor: entry.accessor,
    policies: entry.policies,
    token_policies: entry.policies,
    metadata: entry.meta,
    lease_duration: entry.ttl,
    renewable: entry.renewable,
    entity_id: entry.entity_id,
    token_type: entry.type,
    orphan: entry.orphan,
    num_uses: Math.max(0, entry.num_uses),
    mfa_requirement: null,
  };
}
