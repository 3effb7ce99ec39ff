import { InvalidRequestError } from '../../logical/errors.js';
import { type ConnectionTarget, parseMysqlUrl, parsePostgresUrl } from './connection-url.js';
import { openMysql } from './mysql-session.js';
import { openPostgres } from './postgres-session.js';
import type { SessionOpener } from './sql-session.js';

/** What differs between the database plugins the engine has built in. */
export interface DatabasePlugin {
  readonly name: string;
  parseUrl(url: string): ConnectionTarget;
  readonly open: SessionOpener;
  /** The `username_template` of a config that sets none. */
  readonly defaultUsernameTemplate: string;
  /** Renewal statements of a role that has none; empty: renewal changes nothing in the database. */
  readonly defaultRenewStatements: readonly string[];
  /** Password change of a static role (and of the root user) whose statements are empty. */
  readonly defaultRotationStatements: readonly string[];
  /** Users may be this long at most; a longer rendered name is refused. */
  readonly maxUsernameLength: number;
  /** `{{expiration}}` as the database reads it. */
  expiration(ms: number): string;
}

/** Go's `2006-01-02 15:04:05-0700`, in UTC: what PostgreSQL's `VALID UNTIL` is given. */
function postgresTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+0000`;
}

const mysqlTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

const POSTGRES: DatabasePlugin = {
  name: 'postgresql-database-plugin',
  parseUrl: parsePostgresUrl,
  open: openPostgres,
  defaultUsernameTemplate:
    '{{ printf "v-%s-%s-%s-%s" (.DisplayName | truncate 8) (.RoleName | truncate 8) (random 20) (unix_time) | truncate 63 }}',
  defaultRenewStatements: [`ALTER ROLE "{{name}}" VALID UNTIL '{{expiration}}';`],
  defaultRotationStatements: [`ALTER ROLE "{{username}}" WITH PASSWORD '{{password}}';`],
  maxUsernameLength: 63,
  expiration: postgresTime,
};

const mysqlPlugin = (name: string, legacy: boolean): DatabasePlugin => ({
  name,
  parseUrl: parseMysqlUrl,
  open: openMysql,
  // MySQL before 5.7 (and the RDS and Aurora plugins of that age) kept user names to 16 characters.
  defaultUsernameTemplate: legacy
    ? '{{ printf "v-%s-%s" (.RoleName | truncate 4) (random 20) | truncate 16 }}'
    : '{{ printf "v-%s-%s-%s-%s" (.DisplayName | truncate 10) (.RoleName | truncate 10) (random 20) (unix_time) | truncate 32 }}',
  defaultRenewStatements: [],
  defaultRotationStatements: legacy
    ? [`SET PASSWORD FOR '{{username}}'@'%' = PASSWORD('{{password}}');`]
    : [`ALTER USER '{{username}}'@'%' IDENTIFIED BY '{{password}}';`],
  maxUsernameLength: legacy ? 16 : 32,
  expiration: mysqlTime,
});

/** The built-in plugins by `plugin_name`. */
export const PLUGINS: ReadonlyMap<string, DatabasePlugin> = new Map([
  [POSTGRES.name, POSTGRES],
  ['mysql-database-plugin', mysqlPlugin('mysql-database-plugin', false)],
  ['mysql-aurora-database-plugin', mysqlPlugin('mysql-aurora-database-plugin', true)],
  ['mysql-rds-database-plugin', mysqlPlugin('mysql-rds-database-plugin', true)],
  ['mysql-legacy-database-plugin', mysqlPlugin('mysql-legacy-database-plugin', true)],
]);

/** The plugin named `name`; 400 in the established words when there is none. */
export function requirePlugin(name: string): DatabasePlugin {
  const plugin = PLUGINS.get(name);
  if (!plugin)
    throw new InvalidRequestError(`error creating database object: plugin "${name}" not found in the catalog`);
  return plugin;
}
