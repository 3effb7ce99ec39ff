import { defaultRole, type RoleTokenType, type TokenRole } from '../../core/tokens/index.js';
import { definePath, type FieldValues, field } from '../../framework/index.js';
import type { TokenBackendDeps } from './deps.js';

const roleFields = {
  role_name: field.path({ description: 'Name of the role.', caseInsensitive: true }),
  allowed_policies: field.commaStrings({ description: 'Policies tokens of this role may have; also their default.' }),
  disallowed_policies: field.commaStrings({ description: 'Policies tokens of this role may never have.' }),
  allowed_policies_glob: field.commaStrings({ description: 'Globs of allowed policies.' }),
  disallowed_policies_glob: field.commaStrings({ description: 'Globs of disallowed policies.' }),
  orphan: field.bool({ description: 'Tokens of this role are orphans.' }),
  renewable: field.bool({ description: 'Tokens of this role may be renewed.' }),
  path_suffix: field.string({ description: 'Suffix of the tokens’ creation path (and so of their lease ids).' }),
  allowed_entity_aliases: field.commaStrings({ description: 'Entity aliases tokens of this role may be bound to.' }),
  token_bound_cidrs: field.commaStrings({ description: 'CIDR blocks the tokens may be used from.' }),
  token_explicit_max_ttl: field.durationSeconds({ description: 'Explicit max TTL of the tokens.' }),
  token_period: field.durationSeconds({ description: 'Period of the tokens (makes them periodic).' }),
  token_no_default_policy: field.bool({ description: 'Do not attach the `default` policy.' }),
  token_num_uses: field.int({ description: 'Number of uses of the tokens; 0 = unlimited.' }),
  token_type: field.string({ description: '`service`, `batch`, `default-service` or `default-batch`.' }),
  token_ttl: field.durationSeconds({ description: 'Default TTL of the tokens.' }),
  token_max_ttl: field.durationSeconds({ description: 'Max TTL of the tokens.' }),
};

type RoleData = FieldValues<typeof roleFields>;
type SettableField = Exclude<keyof TokenRole & keyof RoleData, 'role_name'>;

/** `roles/` (LIST) and `roles/:role_name` (read, write, delete). */
export function pathRoles(d: TokenBackendDeps) {
  const roles = d.roles;
  return [
    definePath({
      pattern: 'roles/',
      fields: {},
      operations: {
        list: { summary: 'List token roles.', handler: async () => ({ data: { keys: await roles.list() } }) },
      },
      help: { synopsis: 'List token roles.', description: 'Names of the roles tokens can be created through.' },
    }),
    definePath({
      pattern: 'roles/:role_name',
      fields: roleFields,
      existenceCheck: async ({ data }) => (await roles.get(data.role_name)) !== undefined,
      operations: {
        read: {
          summary: 'Read a token role.',
          handler: async ({ data }) => {
            const role = await roles.get(data.role_name);
            return role ? { data: { ...role } } : undefined;
          },
        },
        update: {
          summary: 'Create or change a token role.',
          handler: async ({ data, supplied }) => {
            const role = (await roles.get(data.role_name)) ?? defaultRole(data.role_name);
            await roles.put(applySupplied(role, data, supplied));
            return undefined;
          },
        },
        delete: {
          summary: 'Delete a token role.',
          handler: async ({ data }) => {
            await roles.delete(data.role_name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage token roles.',
        description:
          'A role fixes the policies, type, TTLs, uses and CIDR bindings of the tokens created through `create/<role>`.',
      },
    }),
  ];
}

/** A write changes only the fields it sends; the rest keep their stored (or default) values. */
function applySupplied(role: TokenRole, data: RoleData, supplied: ReadonlySet<string>): TokenRole {
  const next: Record<string, unknown> = { ...role };
  for (const name of Object.keys(roleFields) as Array<keyof RoleData>) {
    if (name === 'role_name' || !supplied.has(name)) continue;
    next[name as SettableField] = data[name];
  }
  if (supplied.has('token_type')) next.token_type = data.token_type as RoleTokenType;
  return next as unknown as TokenRole;
}
