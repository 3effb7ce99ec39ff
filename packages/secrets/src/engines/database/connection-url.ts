import { InvalidRequestError } from '../../logical/errors.js';

/** Where and as whom a driver connects, from a config's `connection_url` and credentials. */
export interface ConnectionTarget {
  host?: string;
  port?: number;
  /** A Unix socket (MySQL `unix(…)`, or a PostgreSQL host that is a directory). */
  socketPath?: string;
  user?: string;
  password?: string;
  database?: string;
  /** Further settings of the URL's query (PostgreSQL: `sslmode`, …). */
  params: Map<string, string>;
}

const TEMPLATE = /^\{\{\s*(username|password)\s*\}\}$/;

/**
 * The target with the config's credentials where the URL has `{{username}}`/`{{password}}` or
 * none at all. Filled in after parsing, so no password needs escaping for either URL syntax.
 */
export function withCredentials(target: ConnectionTarget, username: string, password: string): ConnectionTarget {
  const fill = (value: string | undefined, own: string) =>
    value === undefined || TEMPLATE.test(value) ? own || undefined : value;
  return { ...target, user: fill(target.user, username), password: fill(target.password, password) };
}

/** Whether the URL names the credentials by template (only then can the root password be rotated). */
export function isTemplated(url: string): boolean {
  return /\{\{\s*password\s*\}\}/.test(url);
}

/** A URL that has a password written in it (the established warning: it would be readable). */
export function hasLiteralPassword(url: string): boolean {
  if (isTemplated(url)) return false;
  const at = url.lastIndexOf('@');
  const scheme = url.indexOf('://');
  const userInfo = at === -1 ? '' : url.slice(scheme === -1 ? 0 : scheme + 3, at);
  return userInfo.includes(':') || /(^|\s)password=/.test(url);
}

/**
 * Parses a PostgreSQL URL (`postgres://` or `postgresql://`) or `key=value` connection string.
 * The config's username and password are used where the URL has none.
 */
export function parsePostgresUrl(url: string): ConnectionTarget {
  if (/^postgres(ql)?:\/\//.test(url)) return parseUrl(url, 5432);
  const target: ConnectionTarget = { params: new Map() };
  const pairs = url.matchAll(/(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\S*)/g);
  let seen = false;
  for (const [, key = '', raw = ''] of pairs) {
    seen = true;
    const value = raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (key === 'host') target.host = value;
    else if (key === 'port') target.port = portOf(value);
    else if (key === 'user') target.user = value;
    else if (key === 'password') target.password = value;
    else if (key === 'dbname') target.database = value;
    else target.params.set(key, value);
  }
  if (!seen) throw new InvalidRequestError('error creating database object: invalid connection_url');
  return target;
}

/**
 * Parses a MySQL connection URL: the Go driver's DSN the established plugin takes
 * (`user:pass@tcp(host:port)/db?…`, `@unix(/path)/db`) or a `mysql://` URL.
 */
export function parseMysqlUrl(url: string): ConnectionTarget {
  if (url.startsWith('mysql://')) return parseUrl(url, 3306);
  const slash = url.lastIndexOf('/');
  if (slash === -1)
    throw new InvalidRequestError(
      'error creating database object: invalid DSN: missing the slash separating the database name',
    );
  const head = url.slice(0, slash);
  const [path = '', query = ''] = url.slice(slash + 1).split('?', 2);
  const target: ConnectionTarget = { params: new URLSearchParamsMap(query), database: path || undefined };
  const at = head.lastIndexOf('@');
  if (at !== -1) {
    const userInfo = head.slice(0, at);
    const colon = userInfo.indexOf(':');
    target.user = colon === -1 ? userInfo : userInfo.slice(0, colon);
    if (colon !== -1) target.password = userInfo.slice(colon + 1);
  }
  const address = at === -1 ? head : head.slice(at + 1);
  const m = /^(\w*)(?:\((.*)\))?$/.exec(address);
  if (!m) throw new InvalidRequestError(`error creating database object: invalid DSN address "${address}"`);
  const [, net = '', addr = ''] = m;
  if (net === 'unix') target.socketPath = addr;
  else if (addr) {
    const colon = addr.lastIndexOf(':');
    target.host = colon === -1 ? addr : addr.slice(0, colon);
    target.port = colon === -1 ? 3306 : portOf(addr.slice(colon + 1));
  } else {
    target.host = '127.0.0.1';
    target.port = 3306;
  }
  return target;
}

class URLSearchParamsMap extends Map<string, string> {
  constructor(query: string) {
    super(new URLSearchParams(query));
  }
}

function parseUrl(url: string, defaultPort: number): ConnectionTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError('error creating database object: invalid connection_url');
  }
  const host = decodeURIComponent(parsed.hostname);
  const target: ConnectionTarget = {
    params: new Map(parsed.searchParams),
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
    user: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
  const socketHost = target.params.get('host');
  if (host.startsWith('/') || socketHost?.startsWith('/')) {
    target.socketPath = host.startsWith('/') ? host : socketHost;
    target.params.delete('host');
  } else {
    target.host = host.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  }
  target.port = parsed.port ? portOf(parsed.port) : defaultPort;
  return target;
}

function portOf(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new InvalidRequestError(`error creating database object: invalid port "${text}"`);
  }
  return port;
}
