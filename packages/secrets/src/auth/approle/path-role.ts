import { definePath } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { AppRoleDeps } from './deps.js';
import { applyRoleFields, roleFields, roleReadData } from './role-fields.js';
import { normalizeRoleName } from './role-store.js';

/** `role/` (LIST): the role names. */
export function pathRoleList(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/',
    fields: {},
    operations: {
      list: {
        summary: 'List the roles.',
        handler: async ({ storage }) => {
          const keys = await d.roles.list(storage);
          return { data: { keys } };
        },
      },
    },
    help: { synopsis: 'List AppRole roles.', description: 'Lower-cased role names; 404 when there are none.' },
  });
}

/** `role/:role_name`: create or update (ACL tells them apart), read, delete. */
export function pathRole(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/:role_name',
    fields: roleFields,
    existenceCheck: async ({ storage, data }) =>
      (await d.roles.get(storage, normalizeRoleName(data.role_name))) !== undefined,
    operations: {
      read: {
        summary: 'Read a role’s settings.',
        handler: async ({ storage, data }) => {
          const role = await d.roles.get(storage, normalizeRoleName(data.role_name));
          if (!role) throw new NotFoundError('');
          return { data: roleReadData(role) };
        },
      },
      update: {
        summary: 'Create a role or change one; absent fields keep their values.',
        handler: async ({ storage, data, supplied }) => {
          const name = normalizeRoleName(data.role_name);
          // One lock for every role write: the role-id check and the write must not interleave.
          await d.roleLocks.run('roles', async () => {
            const existing = await d.roles.get(storage, name);
            const role = applyRoleFields(existing, data, supplied, d.random);
            const holder = await d.roles.nameByRoleId(storage, role.role_id);
            if (holder !== undefined && holder !== name) throw new InvalidRequestError('role_id already in use');
            await d.roles.put(storage, name, role, existing?.role_id);
          });
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a role and every secret id of it; tokens it issued stay.',
        handler: async ({ storage, data }) => {
          const name = normalizeRoleName(data.role_name);
          await d.roleLocks.run('roles', async () => {
            const role = await d.roles.get(storage, name);
            if (!role) return;
            for (const found of await d.secretIds.all(storage, name)) await d.secretIds.delete(storage, found);
            await d.roles.delete(storage, name, role);
          });
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Manage AppRole roles.',
      description:
        'A role names the policies and token settings of its logins, and how logins prove ' +
        'themselves: a secret id (`bind_secret_id`), source CIDR blocks, or both.',
    },
  });
}

/** `role/:role_name/role-id`: read or set the role id logins name the role by. */
export function pathRoleId(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/:role_name/role-id',
    fields: {
      role_name: roleFields.role_name,
      role_id: roleFields.role_id,
    },
    operations: {
      read: {
        summary: 'Read the role id.',
        handler: async ({ storage, data }) => {
          const role = await d.roles.get(storage, normalizeRoleName(data.role_name));
          if (!role) throw new NotFoundError('');
          return { data: { role_id: role.role_id } };
        },
      },
      update: {
        summary: 'Set the role id.',
        handler: async ({ storage, data }) => {
          const name = normalizeRoleName(data.role_name);
          if (!data.role_id) throw new InvalidRequestError('missing role_id');
          const roleId = data.role_id;
          await d.roleLocks.run('roles', async () => {
            const role = await d.roles.get(storage, name);
            if (!role) throw new InvalidRequestError(`role "${name}" does not exist`);
            const holder = await d.roles.nameByRoleId(storage, roleId);
            if (holder !== undefined && holder !== name) throw new InvalidRequestError('role_id already in use');
            await d.roles.put(storage, name, { ...role, role_id: roleId }, role.role_id);
          });
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'The role id of a role.',
      description: 'A login names its role by this id; it is not a secret, but is unique across roles.',
    },
  });
}
