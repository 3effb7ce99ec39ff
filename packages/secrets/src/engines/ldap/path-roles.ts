import type { Clock, Random } from '@ward/base';
import { decodeIfBase64, definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { type DynamicRole, dynamicRoles } from './dynamic-role-store.js';
import { checkLdifTemplate } from './ldif-templates.js';
import { roleName, rolePrefix } from './role-name.js';

const LDIF_FIELDS = ['creation_ldif', 'deletion_ldif', 'rollback_ldif'] as const;

const fields = {
  name: field.path({
    description: 'Name of the dynamic role (stored lower case); may have levels: `org/team/name`.',
    caseInsensitive: true,
  }),
  creation_ldif: field.string({ description: 'Templated LDIF creating the account (plain or base64).' }),
  deletion_ldif: field.string({ description: 'Templated LDIF deleting the account when its lease ends.' }),
  rollback_ldif: field.string({ description: 'Templated LDIF undoing a failed creation.' }),
  username_template: field.string({ description: 'Template of the user name.' }),
  default_ttl: field.durationSeconds({ description: 'Lease TTL (0: the mount default).' }),
  max_ttl: field.durationSeconds({ description: 'Longest lease TTL (0: the mount maximum).' }),
};

type RoleInput = Partial<Record<keyof DynamicRole, string | number>>;

/** `role` (LIST) and `role/:name`: templates of short-lived accounts issued by `creds/:name`. */
export function pathRoles(d: { clock: Clock; random: Random }): PathDefinition[] {
  return [
    definePath({
      pattern: 'role/',
      fields: {},
      operations: {
        list: {
          summary: 'List the dynamic roles.',
          handler: async ({ storage }) => ({ data: { keys: await dynamicRoles.list(storage) } }),
        },
      },
      help: { synopsis: 'List the dynamic roles.', description: 'Names of the dynamic roles.' },
    }),
    definePath({
      pattern: 'role/*name',
      fields,
      operations: {
        list: {
          summary: 'List the dynamic roles and folders one level below `name/` (hierarchical names).',
          handler: async ({ storage, data }) => ({
            data: { keys: await dynamicRoles.list(storage, rolePrefix(data.name)) },
          }),
        },
        read: {
          summary: 'Read a dynamic role (LDIF decoded).',
          handler: async ({ storage, data }) => {
            const role = await dynamicRoles.get(storage, roleName(data.name));
            if (!role) throw new NotFoundError('');
            return { data: { ...role } };
          },
        },
        update: {
          summary: 'Create or update a dynamic role: only the keys sent change; a key sent empty is cleared.',
          handler: async ({ storage, data, supplied }) => {
            const name = roleName(data.name);
            const stored = await dynamicRoles.get(storage, name);
            const role = merge(stored, data as RoleInput, supplied);
            for (const key of LDIF_FIELDS) {
              if (role[key]) checkLdifTemplate(key, role[key], d, d.clock.now());
            }
            await dynamicRoles.put(storage, name, role);
            return undefined;
          },
        },
        delete: {
          summary: 'Delete a dynamic role (leases already issued still delete their accounts).',
          handler: async ({ storage, data }) => {
            await dynamicRoles.delete(storage, roleName(data.name));
            return undefined;
          },
        },
      },
      existenceCheck: async ({ storage, data }) => (await dynamicRoles.get(storage, roleName(data.name))) !== undefined,
      help: {
        synopsis: 'Manage a dynamic role.',
        description: 'Templates are checked when saved: they must render sample data to valid LDIF.',
      },
    }),
  ];
}

function merge(stored: DynamicRole | undefined, data: RoleInput, supplied: ReadonlySet<string>): DynamicRole {
  const role: DynamicRole = stored
    ? { ...stored }
    : { creation_ldif: '', deletion_ldif: '', rollback_ldif: '', username_template: '', default_ttl: 0, max_ttl: 0 };
  for (const key of LDIF_FIELDS) if (supplied.has(key)) role[key] = decodeIfBase64(String(data[key] ?? ''));
  if (supplied.has('username_template')) role.username_template = String(data.username_template ?? '');
  if (supplied.has('default_ttl')) role.default_ttl = Number(data.default_ttl ?? 0);
  if (supplied.has('max_ttl')) role.max_ttl = Number(data.max_ttl ?? 0);
  if (!role.creation_ldif) throw new InvalidRequestError('missing creation_ldif');
  if (!role.deletion_ldif) throw new InvalidRequestError('missing deletion_ldif');
  if (role.max_ttl && role.default_ttl > role.max_ttl) {
    throw new InvalidRequestError('default_ttl must not be greater than max_ttl');
  }
  return role;
}
