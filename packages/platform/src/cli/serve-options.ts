import {
  CliError,
  type FlagValue,
  flag,
  isLogFormat,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  type LogLevel,
  UsageError,
} from '@ward/base';
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
  /** `standard` (human-readable lines) or `json` (one JSON object per line). */
  logFormat: LogFormat;
  /** API requests allowed per token (or client address) per second. */
  rateLimitPerSecond: number;
}

/** The established API's limit: about 30 requests per second per user. */
const DEFAULT_RATE_LIMIT_PER_SECOND = 30;

export const SERVE_USAGE = `Usage: ward-platform serve [options]

  Serves the API (/api/v2), the billing pages (/app) and GET /_health.
  Flags take the Go form: -listen=ADDR or -listen ADDR (--listen works too).

  -config=FILE         an HCL file of settings: listen, db, database_url, edition, tls_cert_file,
                       tls_key_file, log_level, log_format, rate_limit (flags given as well win);
                       a bad file or value in it exits 1 naming the key and its line
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
  -log-format=FORMAT   standard (default: human-readable lines) or json (one JSON object per line)
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
      throw new BadSetting('database-url', 'must be a postgres:// or postgresql:// URL');
    }
    return { postgresUrl: databaseUrl };
  }
  return dbPath === undefined ? undefined : { sqlitePath: dbPath };
}

/** `serve`'s flags; each is also a `-config` file key (see CONFIG_KEYS). */
export const SERVE_FLAGS = {
  config: flag.string(),
  listen: flag.string(),
  db: flag.string(),
  'database-url': flag.string(),
  edition: flag.string(),
  'tls-cert': flag.string(),
  'tls-key': flag.string(),
  dev: flag.bool(),
  'dev-token': flag.string(),
  'log-level': flag.logLevel(),
  'log-format': flag.logFormat(),
  'rate-limit': flag.string(),
};

/** A bad value of one setting: `-flag reason` on the command line, `file:line: key reason` in the file. */
class BadSetting extends UsageError {
  constructor(
    readonly flag: string,
    readonly reason: string,
  ) {
    super(`-${flag} ${reason}`);
  }
}

/**
 * Takes `serve`'s flags as given (`SERVE_FLAGS`, parsed), then the `-config` file for what they
 * leave unset, then `WARD_PLATFORM_DATABASE_URL`. A mistake on the command line is a `UsageError` (exit 2); a bad
 * value the file gave is a `CliError` (exit 1) naming its key and line, as a bad file is in the
 * other binaries.
 */
export async function parseServeOptions(
  given: ReadonlyMap<string, FlagValue>,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ServeOptions> {
  if (args.length > 0) throw new UsageError(`unexpected argument: ${args[0]}`);
  const flags = new Map(given) as Map<string, string | boolean>;
  const configPath = flags.get('config') as string | undefined;
  const file = configPath === undefined ? undefined : await readConfigFile(configPath);
  const fromFile = new Set<string>();
  for (const [flag, value] of file?.values ?? []) {
    if (flags.has(flag)) continue;
    flags.set(flag, value);
    fromFile.add(flag);
  }
  try {
    return optionsFrom(flags, env);
  } catch (err) {
    if (!file || !(err instanceof UsageError)) throw err;
    if (err instanceof BadSetting && fromFile.has(err.flag)) {
      throw new CliError(`${file.where(err.flag as ConfigFlag)} ${err.reason}`);
    }
    // Settings that go together (-tls-cert and -tls-key), one of them from the file.
    if ([...fromFile].some((f) => err.message.includes(`-${f}`))) throw new CliError(`${configPath}: ${err.message}`);
    throw err;
  }
}

function optionsFrom(flags: Map<string, string | boolean>, env: NodeJS.ProcessEnv): ServeOptions {
  const text = (name: ConfigFlag | 'dev-token') => flags.get(name) as string | undefined;
  const dev = flags.get('dev') === true;
  const listen = text('listen') ?? '127.0.0.1:8300';
  const m = /^(.*):(\d{1,5})$/.exec(listen);
  const port = Number(m?.[2]);
  if (!m?.[1] || port > 65535) throw new BadSetting('listen', `must be host:port, got "${listen}"`);
  const edition = text('edition') ?? 'hosted';
  if (!EDITIONS.includes(edition as Edition)) throw new BadSetting('edition', 'must be hosted or self-hosted');
  const logLevel = (text('log-level') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel))
    throw new BadSetting('log-level', `must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = text('log-format') ?? 'standard';
  if (!isLogFormat(logFormat)) throw new BadSetting('log-format', `must be ${LOG_FORMATS.join(' or ')}`);
  if ((text('tls-cert') === undefined) !== (text('tls-key') === undefined)) {
    throw new UsageError('-tls-cert and -tls-key go together');
  }
  if (text('dev-token') !== undefined && !dev) throw new UsageError('-dev-token needs -dev');
  const rateLimit = text('rate-limit') ?? String(DEFAULT_RATE_LIMIT_PER_SECOND);
  if (!/^[1-9]\d{0,6}$/.test(rateLimit)) throw new BadSetting('rate-limit', 'must be a whole number from 1 to 9999999');
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
    logFormat,
    rateLimitPerSecond: Number(rateLimit),
  };
}
