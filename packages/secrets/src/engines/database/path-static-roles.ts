import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { DatabaseConfig } from './config-store.js';
import { requireSupported } from './credential-config.js';
import { type DatabaseDeps, notFound, requireConfig } from './deps.js';
import { requireRoleAllowed } from './path-config.js';
import { type StaticRole, staticRoles } from './role-store.js';
import { checkSchedule } from './schedule.js';
import { nextRotation, rotateStaticRole } from './static-rotation.js';

const fields = {
  name: field.path({ description: 'Name of the static role.' }),
  db_name: field.string({ description: 'Name of the connection the user is in.' }),
  username: field.string({ description: 'The existing database user whose password is rotated.' }),
  rotation_period: field.durationSeconds({ description: 'Time between rotations (5 s or more).' }),
  rotation_schedule: field.string({ description: 'Cron schedule of rotations (instead of `rotation_period`).' }),
  rotation_window: field.durationSeconds({
    description: 'With a schedule: how long after each time a rotation may start (1 h or more).',
  }),
  rotation_statements: field.strings({ description: 'Statements that set the password (`{{name}}`, `{{password}}`).' }),
  credential_type: field.string({
    description: '`password` (default) or `rsa_private_key` (refused: the built-in plugins rotate passwords only).',
  }),
  skip_import_rotation: field.bool({
    description: 'On create: do not rotate now; the first rotation waits for its time (default: the config’s).',
  }),
  self_managed_password: field.string({
    description: 'The user’s current password, on a self-managed connection: the user rotates its own password.',
  }),
};

type Input = { [K in keyof typeof fields]: unknown };

/** `static-roles/` (LIST). */
export function pathListStaticRoles(): PathDefinition {
  return definePath({
    pattern: 'static-roles/',
    fields: {},
    operations: {
      list: {
        summary: 'List the static roles.',
        handler: async ({ storage }) => ({ data: { keys: await staticRoles.list(storage) } }),
      },
    },
    help: { synopsis: 'List the static roles.', description: 'Names only, sorted.' },
  });
}

/** The fields static-roles and static-creds both show: the schedule and the last rotation. */
export function scheduleView(role: StaticRole): Record<string, unknown> {
  return {
    ...(role.rotation_schedule
      ? { rotation_schedule: role.rotation_schedule, rotation_window: role.rotation_window }
      : { rotation_period: role.rotation_period }),
    last_vault_rotation: new Date(role.last_rotation_ms).toISOString(),
  };
}

/** `static-roles/:name`: an existing user the engine rotates; it is rotated once when the role is created. */
export function pathStaticRoles(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'static-roles/:name',
    fields,
    existenceCheck: async ({ storage, data }) => (await staticRoles.get(storage, data.name)) !== undefined,
    operations: {
      read: {
        summary: 'Read a static role.',
        handler: async ({ storage, data }) => {
          const role = (await staticRoles.get(storage, data.name)) ?? notFound();
          return {
            data: {
              db_name: role.db_name,
              username: role.username,
              rotation_statements: role.rotation_statements,
              credential_type: role.credential_type,
              ...scheduleView(role),
            },
          };
        },
      },
      update: {
        summary: 'Create or change a static role.',
        handler: ({ storage, data, supplied }) =>
          d.locks.run(`static:${data.name}`, async () => {
            const stored = await staticRoles.get(storage, data.name);
            const config = await requireConfig(
              storage,
              String((supplied.has('db_name') ? data.db_name : stored?.db_name) ?? ''),
            );
            const role = merged(stored, data as Input, supplied, { nowMs: d.clock.now(), config });
            requireRoleAllowed(config, data.name);
            if (stored) {
              await staticRoles.put(storage, data.name, role);
              // As established: the option is about the import only.
              return supplied.has('skip_import_rotation')
                ? { data: null, warnings: ['skip_import_rotation has no effect on updates'] }
                : undefined;
            }
            const skip = supplied.has('skip_import_rotation')
              ? Boolean(data.skip_import_rotation)
              : (config.skip_static_role_import_rotation ?? false);
            // The first rotation makes the password one only the engine knows; the role is saved by it.
            if (skip) await staticRoles.put(storage, data.name, role);
            else await rotateStaticRole(d, data.name, role);
            return undefined;
          }),
      },
      delete: {
        summary: 'Delete a static role (the user and its password stay as they are).',
        handler: ({ storage, data }) =>
          d.locks.run(`static:${data.name}`, async () => {
            await staticRoles.delete(storage, data.name);
            return undefined;
          }),
      },
    },
    help: {
      synopsis: 'Manage static roles.',
      description: 'Exactly one of `rotation_period` and `rotation_schedule`; rotations run on the core scheduler.',
    },
  });
}

function merged(
  stored: StaticRole | undefined,
  data: Input,
  supplied: ReadonlySet<string>,
  at: { nowMs: number; config: DatabaseConfig },
): StaticRole {
  const has = (name: keyof Input) => supplied.has(name);
  const { nowMs, config } = at;
  const credentialType = String(
    (has('credential_type') ? data.credential_type : stored?.credential_type) || 'password',
  );
  if (credentialType !== 'password' && credentialType !== 'rsa_private_key')
    throw new InvalidRequestError(`invalid credential_type "${credentialType}"`);
  requireSupported(credentialType);
  const ownPassword = has('self_managed_password') ? String(data.self_managed_password ?? '') : '';
  if (ownPassword && !config.self_managed)
    throw new InvalidRequestError('self_managed_password is only valid with a self-managed connection');
  if (!stored && config.self_managed && !ownPassword)
    throw new InvalidRequestError('self_managed_password is required for a static role of a self-managed connection');
  if (stored && has('username') && data.username !== stored.username) {
    throw new InvalidRequestError('cannot update static account username');
  }
  const username = String((has('username') ? data.username : stored?.username) ?? '');
  if (!username) throw new InvalidRequestError('username is a required field to create a static account');
  const dbName = String((has('db_name') ? data.db_name : stored?.db_name) ?? '');
  if (!dbName) throw new InvalidRequestError('database name is required');
  if (has('rotation_period') && has('rotation_schedule')) {
    throw new InvalidRequestError(
      'mutually exclusive fields rotation_period and rotation_schedule were both specified; only one of them can be provided',
    );
  }
  let period = stored?.rotation_period ?? 0;
  let schedule = stored?.rotation_schedule ?? '';
  let window = stored?.rotation_window ?? 0;
  if (has('rotation_period')) [period, schedule, window] = [Number(data.rotation_period), '', 0];
  if (has('rotation_schedule')) [period, schedule] = [0, String(data.rotation_schedule)];
  if (!period && !schedule)
    throw new InvalidRequestError('one of rotation_schedule or rotation_period must be provided');
  if (period && period < 5) throw new InvalidRequestError('rotation_period must be 5 seconds or more');
  if (schedule) checkSchedule(schedule);
  if (has('rotation_window')) {
    if (!schedule) throw new InvalidRequestError('rotation_window is invalid with use of rotation_period');
    window = Number(data.rotation_window);
    if (window !== 0 && window < 3600) throw new InvalidRequestError('rotation_window must be 3600 seconds or more');
  }
  const statements = has('rotation_statements')
    ? (data.rotation_statements as string[])
    : (stored?.rotation_statements ?? []);
  const changedSchedule =
    stored &&
    (stored.rotation_period !== period || stored.rotation_schedule !== schedule || stored.rotation_window !== window);
  return {
    db_name: dbName,
    username,
    rotation_period: period,
    rotation_schedule: schedule,
    rotation_window: window,
    rotation_statements: statements,
    credential_type: 'password',
    // A self-managed password sent on update corrects the one the role holds (no rotation).
    password: ownPassword || (stored?.password ?? ''),
    self_managed: config.self_managed ?? false,
    last_rotation_ms: stored?.last_rotation_ms ?? 0,
    // A new period counts from the last rotation; a new schedule (or window) from now.
    ...(changedSchedule
      ? schedule
        ? nextRotation({ rotation_period: period, rotation_schedule: schedule, rotation_window: window }, nowMs)
        : { next_rotation_ms: stored.last_rotation_ms + period * 1000, rotation_window_end_ms: 0 }
      : stored
        ? { next_rotation_ms: stored.next_rotation_ms, rotation_window_end_ms: stored.rotation_window_end_ms ?? 0 }
        : nextRotation({ rotation_period: period, rotation_schedule: schedule, rotation_window: window }, nowMs)),
    failures: stored?.failures ?? 0,
    last_rotation_error: stored?.last_rotation_error ?? '',
  };
}
