import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { MANAGED_ACCOUNTS, refuseManaged } from './managed-accounts.js';
import { roleName, rolePrefix } from './role-name.js';
import { type StaticRole, staticRoles } from './static-role-store.js';
import { type RotationDeps, requireConfig, rotateStaticRole } from './static-rotation.js';

/** Shortest `rotation_period` (spec 001, Limits). */
const MIN_ROTATION_PERIOD_SECONDS = 5;

const nameField = field.path({
  description: 'Name of the static role (stored lower case); may have levels: `org/team/name`.',
  caseInsensitive: true,
});

/** `static-role` (LIST) and `static-role/:name`: entries whose passwords the engine rotates. */
export function pathStaticRoles(d: RotationDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'static-role/',
      fields: {},
      operations: {
        list: {
          summary: 'List the static roles.',
          handler: async ({ storage }) => ({ data: { keys: await staticRoles.list(storage) } }),
        },
      },
      help: { synopsis: 'List the static roles.', description: 'Names of the static roles.' },
    }),
    pathStaticRole(d),
  ];
}

function pathStaticRole(d: RotationDeps): PathDefinition {
  return definePath({
    pattern: 'static-role/*name',
    fields: {
      name: nameField,
      dn: field.string({ description: 'DN of the entry; without it the entry is found by `username` under `userdn`.' }),
      // Required on create only (checked there): the framework's requiredFor covers update too.
      username: field.string({ description: 'Login name of the entry (required on create).' }),
      rotation_period: field.durationSeconds({
        description: 'Time between rotations (at least 5 s; required on create).',
      }),
      skip_import_rotation: field.bool({
        description: 'Keep the current password until the first scheduled rotation.',
      }),
    },
    operations: {
      list: {
        summary: 'List the static roles and folders one level below `name/` (hierarchical names).',
        handler: async ({ storage, data }) => ({
          data: { keys: await staticRoles.list(storage, rolePrefix(data.name)) },
        }),
      },
      read: {
        summary: 'Read a static role.',
        handler: async ({ storage, data }) => {
          const role = await staticRoles.get(storage, roleName(data.name));
          if (!role) throw new NotFoundError('');
          return { data: roleView(role) };
        },
      },
      create: {
        summary: 'Create a static role; its password is rotated at once unless `skip_import_rotation`.',
        handler: async ({ data }) => {
          const name = roleName(data.name);
          return d.locks.run(name, () => createRole(d, name, data));
        },
      },
      update: {
        summary: 'Change the rotation period of a static role.',
        handler: async ({ storage, data, supplied }) => {
          const name = roleName(data.name);
          return d.locks.run(name, () => updateRole(storage, name, data, supplied));
        },
      },
      delete: {
        summary: 'Delete a static role (the directory password stays as it is).',
        handler: async ({ storage, data }) => {
          const name = roleName(data.name);
          await d.locks.run(name, async () => {
            await staticRoles.delete(storage, name);
            await staticRoles.deleteWal(storage, name);
          });
          return undefined;
        },
      },
    },
    existenceCheck: async ({ storage, data }) => (await staticRoles.get(storage, roleName(data.name))) !== undefined,
    help: {
      synopsis: 'Manage a static role: an existing entry whose password is rotated on a schedule.',
      description:
        'The schedule is stored with the role, so it survives restarts. A failed rotation is retried after ' +
        '10 s, doubling up to the period, and shown as `last_rotation_error`.',
    },
  });
}

interface RoleInput {
  dn?: string;
  username?: string;
  rotation_period?: number;
  skip_import_rotation?: boolean;
}

function checkPeriod(seconds: number): void {
  if (seconds < MIN_ROTATION_PERIOD_SECONDS) throw new InvalidRequestError('rotation_period must be 5 seconds or more');
}

async function createRole(d: RotationDeps, name: string, data: RoleInput) {
  const { storage } = d;
  const config = await requireConfig(storage);
  const username = data.username;
  if (username === undefined) throw new InvalidRequestError('username is a required field to manage a static account');
  if (!username) throw new InvalidRequestError('username must not be empty');
  if (data.rotation_period === undefined) {
    throw new InvalidRequestError('rotation_period is required to create static accounts');
  }
  checkPeriod(data.rotation_period);
  const input = { ...data, rotation_period: data.rotation_period };
  return d.managedLock.run(MANAGED_ACCOUNTS, async () => {
    await refuseManaged(storage, [username]);
    return saveNewRole(d, name, input, username, config.skip_static_role_import_rotation);
  });
}

async function saveNewRole(
  d: RotationDeps,
  name: string,
  data: RoleInput & { rotation_period: number },
  username: string,
  isImportSkippedByConfig: boolean,
) {
  const { storage } = d;
  const now = d.clock.now();
  const role: StaticRole = {
    dn: data.dn ?? '',
    username,
    rotation_period: data.rotation_period,
    password: '',
    last_password: '',
    last_rotation_ms: 0,
    next_rotation_ms: now + data.rotation_period * 1000,
    failures: 0,
    last_rotation_error: '',
  };
  if (data.skip_import_rotation ?? isImportSkippedByConfig) {
    await staticRoles.put(storage, name, role);
    return undefined;
  }
  try {
    await rotateStaticRole(d, name, role);
  } catch (err) {
    // The role was never saved: nothing of it may stay behind.
    await staticRoles.deleteWal(storage, name);
    throw err;
  }
  return undefined;
}

async function updateRole(storage: Storage, name: string, data: RoleInput, supplied: ReadonlySet<string>) {
  const role = await staticRoles.get(storage, name);
  if (!role) throw new NotFoundError('');
  if (supplied.has('skip_import_rotation'))
    throw new InvalidRequestError('skip_import_rotation has no effect on updates');
  if (supplied.has('username') && data.username !== role.username) {
    throw new InvalidRequestError('cannot update static account username');
  }
  if (data.dn && data.dn !== role.dn)
    throw new InvalidRequestError('cannot update static account distinguished name (dn)');
  const updated = { ...role, dn: supplied.has('dn') ? (data.dn ?? '') : role.dn };
  if (data.rotation_period !== undefined) {
    checkPeriod(data.rotation_period);
    // Re-timed from the last rotation (or the previous schedule's start) with the new period.
    const since = role.last_rotation_ms || role.next_rotation_ms - role.rotation_period * 1000;
    updated.rotation_period = data.rotation_period;
    updated.next_rotation_ms = since + data.rotation_period * 1000;
  }
  await staticRoles.put(storage, name, updated);
  return undefined;
}

/** RFC 3339 time of a rotation; the zero time when there was none (as established). */
export function rotationTime(ms: number): string {
  return ms ? new Date(ms).toISOString() : '0001-01-01T00:00:00Z';
}

function roleView(role: StaticRole): Record<string, unknown> {
  return {
    dn: role.dn,
    username: role.username,
    rotation_period: role.rotation_period,
    ...(role.last_rotation_ms
      ? {
          last_service_rotation: rotationTime(role.last_rotation_ms),
          last_vault_rotation: rotationTime(role.last_rotation_ms),
        }
      : {}),
    ...(role.last_rotation_error ? { last_rotation_error: role.last_rotation_error } : {}),
  };
}
