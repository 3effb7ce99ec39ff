import type { LogicalResponse } from '../../logical/response.js';
import { tokenGrant } from '../common/index.js';
import { groupsOf, mappedMetadata, userOf } from './claims.js';
import type { JwtRole } from './jwt-store.js';

/**
 * The login a token's verified claims earn under `role`: the user claim is the alias, the mapped
 * claims and the role's name are the metadata, and the groups claim (or the provider's `groups`)
 * names the external groups.
 */
export function loginFor(
  roleName: string,
  role: JwtRole,
  claims: Record<string, unknown>,
  groups: string[] = groupsOf(claims, role),
): LogicalResponse {
  const user = userOf(claims, role);
  const metadata = { ...mappedMetadata(claims, role), role: roleName };
  return {
    login: {
      aliasName: user,
      displayName: user,
      metadata,
      groupAliases: groups,
      ...tokenGrant(role.token),
    },
  };
}
