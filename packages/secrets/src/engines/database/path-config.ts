import { formatDurationSeconds } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { configs, type DatabaseConfig } from './config-store.js';
import { hasLiteralPassword } from './connection-url.js';
import { openSession } from './connections.js';
import { type DatabaseDeps, notFound } from './deps.js';
import { requirePlugin } from './plugins.js';

const fields = {
  name: field.path({ description: 'Name of this database connection.' }),
  plugin_name: field.string({
    description: 'The database plugin: `postgresql-database-plugin`, `mysql-database-plugin`, …',
  }),
  plugin_version: field.string({ description: 'Version of the plugin (built-in plugins have none).' }),
  verify_connection: field.bool({ description: 'Connect with the settings before saving them.', default: true }),
  allowed_roles: field.commaStrings({ description: 'Roles (globs; `*`: all) that may use this connection.' }),
  root_rotation_statements: field.strings({
    description: 'Statements `rotate-root` runs (`{{username}}`, `{{password}}`).',
  }),
  password_policy: field.string({ description: 'Password policy (`sys/policies/password`) for generated passwords.' }),
  connection_url: field.string({ description: 'Connection URL; `{{username}}` and `{{password}}` are filled in.' }),
  username: field.string({ description: 'The root user.' }),
  password: field.string({ description: 'Password of the root user. Never returned.' }),
  max_open_connections: field.int({ description: 'Connections the pool opens at most.', default: 4 }),
  max_idle_connections: field.int({ description: 'Idle connections kept (0: as many as open).', default: 0 }),
  max_connection_lifetime: field.durationSeconds({
    description: 'Age at which a connection is closed (0: none).',
    default: 0,
  }),
  username_template: field.string({ description: 'Template of dynamic usernames.' }),
  disable_escaping: field.bool({
    description: 'Accepted for compatibility: credentials are never pasted into the URL text.',
    default: false,
  }),
  skip_static_role_import_rotation: field.bool({
    description: 'Default of static roles’ skip_import_rotation (their first rotation waits for its time).',
  }),
  self_managed: field.bool({
    description:
      'Rootless (PostgreSQL): no username or password; static roles’ users rotate their own passwords (self_managed_password).',
  }),
};

type Input = { [K in keyof typeof fields]: unknown };

const PASSWORD_IN_URL_WARNING =
  'Password found in connection_url, use a templated url to enable root rotation and prevent read access to password information.';

/** `config/` (LIST): the names of the connections. */
export function pathListConfig(): PathDefinition {
  return definePath({
    pattern: 'config/',
    fields: {},
    operations: {
      list: {
        summary: 'List the database connections.',
        handler: async ({ storage }) => ({ data: { keys: await configs.list(storage) } }),
      },
    },
    help: { synopsis: 'List the database connections.', description: 'Names only, sorted.' },
  });
}

/** `config/:name`: a database connection; `password` is write-only. */
export function pathConfig(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'config/:name',
    fields,
    existenceCheck: async ({ storage, data }) => (await configs.get(storage, data.name)) !== undefined,
    operations: {
      read: {
        summary: 'Read a connection (without its password).',
        handler: async ({ storage, data }) => {
          const config = (await configs.get(storage, data.name)) ?? notFound();
          return { data: configView(config) };
        },
      },
      update: {
        summary: 'Create or change a connection; its pool is closed and opened anew on next use.',
        handler: ({ storage, data, supplied }) =>
          d.locks.run(`config:${data.name}`, async () => {
            const stored = await configs.get(storage, data.name);
            const config = merged(stored, data as Input, supplied);
            if (config.verify_connection) await verify(config, d);
            await configs.put(storage, data.name, config);
            await d.connections.close(data.name);
            return hasLiteralPassword(config.connection_url) ? { warnings: [PASSWORD_IN_URL_WARNING] } : undefined;
          }),
      },
      delete: {
        summary: 'Delete a connection and close its pool.',
        handler: ({ storage, data }) =>
          d.locks.run(`config:${data.name}`, async () => {
            await configs.delete(storage, data.name);
            await d.connections.close(data.name);
            return undefined;
          }),
      },
    },
    help: {
      synopsis: 'Configure a connection to a database.',
      description:
        'PostgreSQL (`postgresql-database-plugin`) and MySQL/MariaDB (`mysql-database-plugin`, `mysql-aurora-database-plugin`, `mysql-rds-database-plugin`, `mysql-legacy-database-plugin`).',
    },
  });
}

/** Defaults apply when creating; an update changes only the fields sent. */
function merged(stored: DatabaseConfig | undefined, data: Input, supplied: ReadonlySet<string>): DatabaseConfig {
  const pick = <K extends keyof DatabaseConfig>(name: K, fallback: DatabaseConfig[K]): DatabaseConfig[K] => {
    if (supplied.has(name)) return (data[name as keyof Input] ?? fallback) as DatabaseConfig[K];
    return stored ? stored[name] : ((data[name as keyof Input] ?? fallback) as DatabaseConfig[K]);
  };
  const config: DatabaseConfig = {
    plugin_name: pick('plugin_name', ''),
    plugin_version: pick('plugin_version', ''),
    verify_connection: pick('verify_connection', true),
    allowed_roles: pick('allowed_roles', []),
    root_rotation_statements: pick('root_rotation_statements', []),
    password_policy: pick('password_policy', ''),
    connection_url: pick('connection_url', ''),
    username: pick('username', ''),
    password: pick('password', ''),
    max_open_connections: pick('max_open_connections', 4),
    max_idle_connections: pick('max_idle_connections', 0),
    max_connection_lifetime: pick('max_connection_lifetime', 0),
    username_template: pick('username_template', ''),
    disable_escaping: pick('disable_escaping', false),
    // A password sent by the operator replaces whatever rotate-root had under way.
    pending_password: supplied.has('password') ? '' : (stored?.pending_password ?? ''),
    skip_static_role_import_rotation: pick('skip_static_role_import_rotation', false) ?? false,
    self_managed: pick('self_managed', false) ?? false,
  };
  if (config.self_managed) {
    if (config.username || config.password)
      throw new InvalidRequestError('a self-managed connection takes no username or password');
    if (config.plugin_name !== 'postgresql-database-plugin')
      throw new InvalidRequestError('self-managed connections are supported by postgresql-database-plugin only');
    // There is no user to verify the connection with.
    config.verify_connection = false;
  }
  if (!config.plugin_name) throw new InvalidRequestError('empty plugin name');
  requirePlugin(config.plugin_name);
  if (!config.connection_url)
    throw new InvalidRequestError('error creating database object: connection_url cannot be empty');
  if (config.max_open_connections <= 0) config.max_open_connections = 4;
  if (config.max_idle_connections < 0) throw new InvalidRequestError('max_idle_connections cannot be negative');
  if (config.max_connection_lifetime < 0) throw new InvalidRequestError('max_connection_lifetime cannot be negative');
  return config;
}

/** Connects with the new settings once (the established `verify_connection`). */
async function verify(config: DatabaseConfig, d: DatabaseDeps): Promise<void> {
  const session = openSession(requirePlugin(config.plugin_name), config, config.password, d);
  try {
    await session.ping();
  } catch (err) {
    throw new InvalidRequestError(
      `error creating database object: error verifying connection: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  } finally {
    await session.close().catch(() => {});
  }
}

function configView(c: DatabaseConfig): Record<string, unknown> {
  return {
    plugin_name: c.plugin_name,
    plugin_version: c.plugin_version,
    connection_details: {
      connection_url: c.connection_url,
      username: c.username,
      max_open_connections: c.max_open_connections,
      max_idle_connections: c.max_idle_connections,
      max_connection_lifetime: formatDurationSeconds(c.max_connection_lifetime),
      ...(c.username_template ? { username_template: c.username_template } : {}),
      ...(c.disable_escaping ? { disable_escaping: true } : {}),
    },
    allowed_roles: c.allowed_roles,
    root_credentials_rotate_statements: c.root_rotation_statements,
    password_policy: c.password_policy,
    verify_connection: c.verify_connection,
    skip_static_role_import_rotation: c.skip_static_role_import_rotation ?? false,
    ...(c.self_managed ? { self_managed: true } : {}),
  };
}

/** Whether config `c` lets role `role` use it (`allowed_roles`: names, globs with `*`). */
export function isRoleAllowed(c: DatabaseConfig, role: string): boolean {
  return c.allowed_roles.some((pattern) => {
    if (pattern === '*' || pattern === role) return true;
    if (!pattern.includes('*')) return false;
    const regex = new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return regex.test(role);
  });
}

/** 400 unless the config lets the role use it. */
export function requireRoleAllowed(c: DatabaseConfig, role: string): void {
  if (!isRoleAllowed(c, role)) throw new InvalidRequestError(`"${role}" is not an allowed role`);
}
