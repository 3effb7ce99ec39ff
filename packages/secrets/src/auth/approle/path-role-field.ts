import { definePath, type FieldSpec } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { AppRoleDeps } from './deps.js';
import { applyRoleFields, roleFields, roleReadData } from './role-fields.js';
import { normalizeRoleName } from './role-store.js';

/** One setting of a role with a path of its own (`role/:role_name/<segment>`), as established. */
interface RoleSetting {
  segment: string;
  /** The role field it reads and writes. */
  name: keyof typeof roleFields & keyof ReturnType<typeof roleReadData>;
  /** The value a DELETE restores. */
  reset: unknown;
}

const SETTINGS: readonly RoleSetting[] = [
  { segment: 'policies', name: 'token_policies', reset: [] },
  { segment: 'bind-secret-id', name: 'bind_secret_id', reset: true },
  { segment: 'secret-id-bound-cidrs', name: 'secret_id_bound_cidrs', reset: [] },
  { segment: 'token-bound-cidrs', name: 'token_bound_cidrs', reset: [] },
  { segment: 'secret-id-num-uses', name: 'secret_id_num_uses', reset: 0 },
  { segment: 'secret-id-ttl', name: 'secret_id_ttl', reset: 0 },
  { segment: 'period', name: 'token_period', reset: 0 },
  { segment: 'token-num-uses', name: 'token_num_uses', reset: 0 },
  { segment: 'token-ttl', name: 'token_ttl', reset: 0 },
  { segment: 'token-max-ttl', name: 'token_max_ttl', reset: 0 },
];

/** `role/:role_name/<setting>` for each setting above, and the read-only `local-secret-ids`. */
export function pathRoleFields(d: AppRoleDeps) {
  return [...SETTINGS.map((s) => pathRoleSetting(d, s)), pathLocalSecretIds(d)];
}

function pathRoleSetting(d: AppRoleDeps, setting: RoleSetting) {
  const { name } = setting;
  /** Writes `value` (already parsed) to the role under the role lock; the role must exist. */
  const write = (storage: Parameters<AppRoleDeps['roles']['get']>[0], roleName: string, value: unknown) =>
    d.roleLocks.run('roles', async () => {
      const role = await d.roles.get(storage, roleName);
      if (!role) throw new InvalidRequestError(`role "${roleName}" does not exist`);
      const next = applyRoleFields(role, { [name]: value }, new Set([name]), d.random);
      await d.roles.put(storage, roleName, next, role.role_id);
    });
  return definePath({
    pattern: `role/:role_name/${setting.segment}`,
    fields: {
      role_name: roleFields.role_name,
      [name]: roleFields[name] as FieldSpec<unknown>,
    },
    operations: {
      read: {
        summary: `Read the role’s ${name}.`,
        handler: async ({ storage, data }) => {
          const role = await d.roles.get(storage, normalizeRoleName(data.role_name as string));
          if (!role) throw new NotFoundError('');
          return { data: { [name]: roleReadData(role)[name] } };
        },
      },
      update: {
        summary: `Set the role’s ${name}.`,
        handler: async ({ storage, data, supplied }) => {
          if (!supplied.has(name)) throw new InvalidRequestError(`missing ${name}`);
          await write(storage, normalizeRoleName(data.role_name as string), data[name]);
          return undefined;
        },
      },
      delete: {
        summary: `Reset the role’s ${name} to its default.`,
        handler: async ({ storage, data }) => {
          await write(storage, normalizeRoleName(data.role_name as string), setting.reset);
          return undefined;
        },
      },
    },
    help: {
      synopsis: `The ${name} of a role.`,
      description: `The same setting as \`${name}\` of \`role/:role_name\`, on a path of its own.`,
    },
  });
}

function pathLocalSecretIds(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/:role_name/local-secret-ids',
    fields: { role_name: roleFields.role_name },
    operations: {
      read: {
        summary: 'Whether the role’s secret ids are local to this cluster.',
        handler: async ({ storage, data }) => {
          const role = await d.roles.get(storage, normalizeRoleName(data.role_name));
          if (!role) throw new NotFoundError('');
          return { data: { local_secret_ids: role.local_secret_ids } };
        },
      },
    },
    help: { synopsis: 'The local_secret_ids of a role.', description: 'Set at creation only.' },
  });
}
