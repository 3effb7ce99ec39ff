import { definePath, field, type PathDefinition, sanitizePolicies } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
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
  return (['groups', 'users'] as const).flatMap((kind) => [
    definePath({
      pattern: `${kind}/`,
      fields: {},
      operations: {
        list: {
          summary: `List the ${kind}.`,
          handler: async ({ storage }) => ({ data: { keys: await ldapAuthStore.mappings(storage, kind) } }),
        },
      },
      help: { synopsis: `List the ${kind} with policies.`, description: '404 when there are none.' },
    }),
    definePath({
      pattern: `${kind}/:name`,
      fields: {
        name: field.path({
          description: `The ${kind === 'groups' ? 'LDAP group' : 'user'} name (lower-cased for the ACL).`,
          caseInsensitive: true,
        }),
        policies: field.commaStrings({ description: 'Policies granted.' }),
        ...(kind === 'users'
          ? { groups: field.commaStrings({ description: 'Groups the user is in here besides the directory’s.' }) }
          : {}),
      },
      operations: {
        update: {
          summary: `Set the policies of a ${kind.slice(0, -1)}.`,
          handler: async ({ storage, data, supplied }) => {
            const name = await folded(storage, data.name);
            const current = await ldapAuthStore.mapping(storage, kind, name);
            const d = data as { policies?: string[]; groups?: string[] };
            await ldapAuthStore.putMapping(storage, kind, name, {
              policies: supplied.has('policies') ? sanitizePolicies(d.policies ?? []) : (current?.policies ?? []),
              ...(kind === 'users'
                ? { groups: supplied.has('groups') ? (d.groups ?? []) : (current?.groups ?? []) }
                : {}),
            });
            return undefined;
          },
        },
        read: {
          summary: `Read a ${kind.slice(0, -1)}.`,
          handler: async ({ storage, data }) => {
            const m = await ldapAuthStore.mapping(storage, kind, await folded(storage, data.name));
            if (!m) throw new NotFoundError('');
            return {
              data:
                kind === 'users'
                  ? { policies: m.policies, groups: (m.groups ?? []).join(',') }
                  : { policies: m.policies },
            };
          },
        },
        delete: {
          summary: `Delete a ${kind.slice(0, -1)}.`,
          handler: async ({ storage, data }) => {
            await ldapAuthStore.deleteMapping(storage, kind, await folded(storage, data.name));
            return undefined;
          },
        },
      },
      help: {
        synopsis: `Policies of an LDAP ${kind.slice(0, -1)}.`,
        description: 'Names are case-insensitive unless the config sets case_sensitive_names.',
      },
    }),
  ]);
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
