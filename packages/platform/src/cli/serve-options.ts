import { parseArgs } from 'node:util';
import { LOG_LEVELS, type LogLevel } from '@ward/base';
import { EDITIONS, type Edition } from '../context.js';
import type { StoreLocation } from '../store/index.js';
import { readConfigFile } from './config-file.js';
import { CliError } from './exit-error.js';
import { goStyleArgs } from './go-style-args.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** The SQLite file or the PostgreSQL URL. */
  store: StoreLocation;
  edition: Edition;
  tlsCertPath: string | undefined;
  tlsKeyPath: string | undefined;
  dev: boolean;
  devToken: string | undefined;
  logLevel: LogLevel;
  /** API requests allowed per token (or client address) per second. */
  rateLimitPerSecond: number;
}

/** The established API's limit: about 30 requests per second per user. */
const DEFAULT_RATE_LIMIT_PER_SECOND = 30;

export const SERVE_USAGE = `Usage: ward-platform serve [options]

  Serves the API (/api/v2), the billing pages (/app) and GET /_health.
  Flags take one dash or two (-listen=ADDR, --listen ADDR).

  --config FILE        an HCL file of settings: listen, db, database_url, edition, tls_cert_file,
                       tls_key_file, log_level, rate_limit (flags given as well win)
  --listen ADDR        host:port to listen on (default 127.0.0.1:8300; port 0 picks a free one)
  --db PATH            SQLite database file (default ward-platform.db; :memory: for a throwaway one;
                       with --dev the default is :memory:)
  --database-url URL   PostgreSQL instead of SQLite: postgres://user:password@host:port/database
                       (also WARD_PLATFORM_DATABASE_URL); several processes may share it
  --edition EDITION    hosted (default) or self-hosted; plans and subscriptions exist only in hosted
  --tls-cert PATH      PEM certificate chain; serve HTTPS (needs --tls-key)
  --tls-key PATH       PEM private key
  --dev                seed an admin user "admin" whose API token is --dev-token
  --dev-token TOKEN    the admin's token (default: a random one, printed)
  --log-level LEVEL    trace, debug, info (default), warn or error
  --rate-limit N       API requests allowed per token (or client address without one) per second;
                       more are answered 429 with Retry-After (default 30)
`;

/** The environment variable that names the PostgreSQL database when `--database-url` is not given. */
export const DATABASE_URL_ENV = 'WARD_PLATFORM_DATABASE_URL';

/**
 * Where the data lives: PostgreSQL when a URL is given, else the SQLite file (undefined when
 * neither is). Naming both is a usage error, as is a URL that is not `postgres://`.
 */
export function storeLocation(dbPath: string | undefined, databaseUrl: string | undefined): StoreLocation | undefined {
  if (databaseUrl !== undefined && databaseUrl !== '') {
    if (dbPath !== undefined)
      throw new CliError('--db and --database-url (or WARD_PLATFORM_DATABASE_URL) exclude each other', 2);
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new CliError('--database-url must be a postgres:// or postgresql:// URL', 2);
    }
    return { postgresUrl: databaseUrl };
  }
  return dbPath === undefined ? undefined : { sqlitePath: dbPath };
}

/**
 * Parses `serve`'s flags, then the `--config` file for what they leave unset, then
 * `WARD_PLATFORM_DATABASE_URL`; any mistake is a CliError with exit code 2 (usage).
 */
export async function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeOptions> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(goStyleArgs(argv)).values;
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${SERVE_USAGE}`, 2);
  }
  if (values.config !== undefined) {
    for (const [flag, value] of await readConfigFile(values.config)) values[flag] ??= value;
  }
  const listen = values.listen ?? '127.0.0.1:8300';
  const m = /^(.*):(\d{1,5})$/.exec(listen);
  const port = Number(m?.[2]);
  if (!m?.[1] || port > 65535) throw new CliError(`--listen must be host:port, got "${listen}"`, 2);
  const edition = values.edition ?? 'hosted';
  if (!EDITIONS.includes(edition as Edition)) throw new CliError('--edition must be hosted or self-hosted', 2);
  const logLevel = values['log-level'] ?? 'info';
  if (!LOG_LEVELS.includes(logLevel as LogLevel))
    throw new CliError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`, 2);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) {
    throw new CliError('--tls-cert and --tls-key go together', 2);
  }
  if (values['dev-token'] !== undefined && !values.dev) throw new CliError('--dev-token needs --dev', 2);
  const rateLimit = values['rate-limit'] ?? String(DEFAULT_RATE_LIMIT_PER_SECOND);
  if (!/^[1-9]\d{0,6}$/.test(rateLimit)) throw new CliError('--rate-limit must be a whole number from 1 to 9999999', 2);
  return {
    host: m[1].replace(/^\[(.*)\]$/, '$1'),
    port,
    store: storeLocation(values.db, values['database-url'] ?? env[DATABASE_URL_ENV]) ?? {
      sqlitePath: values.dev ? ':memory:' : 'ward-platform.db',
    },
    edition: edition as Edition,
    tlsCertPath: values['tls-cert'],
    tlsKeyPath: values['tls-key'],
    dev: values.dev ?? false,
    devToken: values['dev-token'],
    logLevel: logLevel as LogLevel,
    rateLimitPerSecond: Number(rateLimit),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      config: { type: 'string' },
      listen: { type: 'string' },
      db: { type: 'string' },
      'database-url': { type: 'string' },
      edition: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      dev: { type: 'boolean' },
      'dev-token': { type: 'string' },
      'log-level': { type: 'string' },
      'rate-limit': { type: 'string' },
    },
  });
}
