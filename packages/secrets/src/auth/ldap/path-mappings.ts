import type { PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { mappingPaths } from '../common/index.js';
import { type LdapAuthConfig, ldapAuthStore } from './ldap-auth-store.js';

/**
 * A directory name as this mount keys it (lockout, mappings, alias): white space at the ends dropped
 * and runs of it made one space, as the directory's own matching does (so `alice ` cannot start a
 * lockout count of its own: HCSEC-2025-20), then lower case unless the config keeps case.
 */
export const foldName = (config: LdapAuthConfig | undefined, name: string) => {
  const spaced = name.trim().replace(/\s+/g, ' ');
  return config?.case_sensitive_names ? spaced : spaced.toLowerCase();
};

/** `groups/:name` and `users/:name` (policies; users also local groups), and their listings. */
export function pathMappings(): PathDefinition[] {
  return mappingPaths({
    store: ldapAuthStore,
    kinds: ['groups', 'users'],
    fold: folded,
    caseInsensitive: true,
    groupsAsText: true,
    describeName: (kind) => `The ${kind === 'groups' ? 'LDAP group' : 'user'} name (lower-cased for the ACL).`,
    localGroupsDescription: 'Groups the user is in here besides the directory’s.',
    help: (kind) => ({
      synopsis: `Policies of an LDAP ${kind.slice(0, -1)}.`,
      description: 'Names are case-insensitive unless the config sets case_sensitive_names.',
    }),
  });
}

/**
 * The mapping `name` names. Refused with white space at its ends or in runs: the ACL judges the
 * path as sent (lower-cased), so `users/admin%20` must not reach the mapping of `admin`.
 */
async function folded(storage: Storage, name: string): Promise<string> {
  if (name !== name.trim().replace(/\s+/g, ' ')) {
    throw new InvalidRequestError('a user or group name must not start or end with white space, nor hold runs of it');
  }
  return foldName(await ldapAuthStore.config(storage), name);
}
