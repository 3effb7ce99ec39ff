import { type FlagKind, LOG_LEVELS, type LogLevel, parseGoFlags, UsageError } from '@ward/base';
import { EDITIONS, type Edition } from '../context.js';
import type { StoreLocation } from '../store/index.js';
import { type ConfigFlag, readConfigFile } from './config-file.js';

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
  Flags take the Go form: -listen=ADDR or -listen ADDR (--listen works too).

  -config=FILE         an HCL file of settings: listen, db, database_url, edition, tls_cert_file,
                       tls_key_file, log_level, rate_limit (flags given as well win)
  -listen=ADDR         host:port to listen on (default 127.0.0.1:8300; port 0 picks a free one)
  -db=PATH             SQLite database file (default ward-platform.db; :memory: for a throwaway one;
                       with -dev the default is :memory:)
  -database-url=URL    PostgreSQL instead of SQLite: postgres://user:password@host:port/database
                       (also WARD_PLATFORM_DATABASE_URL); several processes may share it
  -edition=EDITION     hosted (default) or self-hosted; plans and subscriptions exist only in hosted
  -tls-cert=PATH       PEM certificate chain; serve HTTPS (needs -tls-key)
  -tls-key=PATH        PEM private key
  -dev                 seed an admin user "admin" whose API token is -dev-token
  -dev-token=TOKEN     the admin's token (default: a random one, printed)
  -log-level=LEVEL     trace, debug, info (default), warn or error
  -rate-limit=N        API requests allowed per token (or client address without one) per second;
                       more are answered 429 with Retry-After (default 30)

Example:
  ward-platform serve -dev -listen=127.0.0.1:8300
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
      throw new UsageError('-db and -database-url (or WARD_PLATFORM_DATABASE_URL) exclude each other');
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new UsageError('-database-url must be a postgres:// or postgresql:// URL');
    }
    return { postgresUrl: databaseUrl };
  }
  return dbPath === undefined ? undefined : { sqlitePath: dbPath };
}

/** `serve`'s flags; each is also a `-config` file key (see CONFIG_KEYS). */
export const SERVE_FLAGS = new Map<string, FlagKind>([
  ['config', 'string'],
  ['listen', 'string'],
  ['db', 'string'],
  ['database-url', 'string'],
  ['edition', 'string'],
  ['tls-cert', 'string'],
  ['tls-key', 'string'],
  ['dev', 'bool'],
  ['dev-token', 'string'],
  ['log-level', 'log-level'],
  ['rate-limit', 'string'],
]);

/**
 * Parses `serve`'s flags, then the `-config` file for what they leave unset, then
 * `WARD_PLATFORM_DATABASE_URL`; any mistake is a `UsageError` (exit 2).
 */
export async function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeOptions> {
  const parsed = parseGoFlags(argv, SERVE_FLAGS, 'go');
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument: ${parsed.args[0]}`);
  const flags = parsed.values as Map<string, string | boolean>;
  const text = (name: ConfigFlag | 'config' | 'dev-token') => flags.get(name) as string | undefined;
  const config = text('config');
  if (config !== undefined) {
    for (const [flag, value] of await readConfigFile(config)) if (!flags.has(flag)) flags.set(flag, value);
  }
  const dev = flags.get('dev') === true;
  const listen = text('listen') ?? '127.0.0.1:8300';
  const m = /^(.*):(\d{1,5})$/.exec(listen);
  const port = Number(m?.[2]);
  if (!m?.[1] || port > 65535) throw new UsageError(`-listen must be host:port, got "${listen}"`);
  const edition = text('edition') ?? 'hosted';
  if (!EDITIONS.includes(edition as Edition)) throw new UsageError('-edition must be hosted or self-hosted');
  const logLevel = text('log-level') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel as LogLevel))
    throw new UsageError(`-log-level must be one of ${LOG_LEVELS.join(', ')}`);
  if ((text('tls-cert') === undefined) !== (text('tls-key') === undefined)) {
    throw new UsageError('-tls-cert and -tls-key go together');
  }
  if (text('dev-token') !== undefined && !dev) throw new UsageError('-dev-token needs -dev');
  const rateLimit = text('rate-limit') ?? String(DEFAULT_RATE_LIMIT_PER_SECOND);
  if (!/^[1-9]\d{0,6}$/.test(rateLimit)) throw new UsageError('-rate-limit must be a whole number from 1 to 9999999');
  return {
    host: m[1].replace(/^\[(.*)\]$/, '$1'),
    port,
    store: storeLocation(text('db'), text('database-url') ?? env[DATABASE_URL_ENV]) ?? {
      sqlitePath: dev ? ':memory:' : 'ward-platform.db',
    },
    edition: edition as Edition,
    tlsCertPath: text('tls-cert'),
    tlsKeyPath: text('tls-key'),
    dev,
    devToken: text('dev-token'),
    logLevel: logLevel as LogLevel,
    rateLimitPerSecond: Number(rateLimit),
  };
}
