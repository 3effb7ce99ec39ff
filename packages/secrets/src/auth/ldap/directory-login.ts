import type { Clock } from '@ward/base';
import type { Client, Entry } from 'ldapts';
import { ResultCodeError } from 'ldapts';
import {
  type ConnectionPool,
  connectBound,
  type DerefAliases,
  type Directory,
  type LdapConfig,
  upstream,
} from '../../engines/ldap/index.js';
import { PermissionDeniedError, UpstreamError } from '../../logical/errors.js';
import { escapeDnValue, escapeFilterValue, renderFilter } from './filters.js';
import { directoryGroups, type SearchAs } from './group-search.js';
import type { LdapAuthConfig } from './ldap-auth-store.js';

/** LDAP results that refuse a bind: 49 invalid credentials, 34 a name that is no DN (`user@domain` on OpenLDAP). */
const REFUSED_BIND = new Set([49, 34]);

/** The one answer for an unknown user and a wrong password, so neither tells which it was. */
export const badCredentials = () => new PermissionDeniedError('ldap operation failed: failed to bind as user');

/** What the directory said about a user who bound with their password. */
export interface DirectoryUser {
  /** The `userattr` value of the user's entry, when it was searched; else the name typed. */
  entryName: string;
  /** Names of the user's groups (the `groupattr` values; a DN value gives its CN). */
  groups: string[];
}

/** The protocol's words for the config's `dereference_aliases` values. */
const DEREF = new Map<LdapAuthConfig['dereference_aliases'], DerefAliases>([
  ['never', 'never'],
  ['finding', 'find'],
  ['searching', 'search'],
  ['always', 'always'],
]);

/**
 * The engine's connection settings for the method's config: the pool and `connectBound` take these.
 * Every search on such a connection dereferences aliases as `dereference_aliases` says (established).
 */
export function connectionOf(c: LdapAuthConfig, bind = { dn: c.binddn, password: c.bindpass }): LdapConfig {
  return {
    url: c.url,
    binddn: bind.dn,
    bindpass: bind.password,
    upndomain: '',
    starttls: c.starttls,
    insecure_tls: c.insecure_tls,
    certificate: c.certificate,
    client_tls_cert: c.client_tls_cert,
    client_tls_key: c.client_tls_key,
    tls_min_version: c.tls_min_version,
    tls_max_version: c.tls_max_version,
    connection_timeout: c.connection_timeout,
    request_timeout: c.request_timeout,
    schema: 'ldapdir',
    userdn: c.userdn,
    userattr: c.userattr,
    password_policy: '',
    length: 0,
    skip_static_role_import_rotation: false,
    last_bindpass: '',
    last_bind_password_rotation_ms: 0,
    dereference_aliases: DEREF.get(c.dereference_aliases) ?? 'never',
  };
}

const first = (entry: Entry, attr: string): string | undefined => {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attr.toLowerCase());
  const value = key ? entry[key] : undefined;
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' ? one : one instanceof Buffer ? one.toString('utf8') : undefined;
};

/**
 * The established LDAP login: find the user's bind DN (a search as `binddn`, or anonymous with `discoverdn`; else `<username>@<upndomain>` or `<userattr>=<username>,<userdn>`), bind as it
 * with the password on a connection of its own (never a pooled one), then find the user's
 * groups (`directoryGroups`; as `binddn` through the pool, else on the user's connection). With
 * `upndomain` the user's DN for the groups is that of the entry found by `userPrincipalName` (an
 * AD bind by UPN names no DN), searched after every bind as established, groups or not. A refused
 * password or unknown user is a 403; a directory that fails is a 502.
 */
export async function directoryLogin(
  config: LdapAuthConfig,
  pool: ConnectionPool,
  clock: Clock,
  username: string,
  password: string,
): Promise<DirectoryUser> {
  const hasServiceBind = config.binddn !== '' && config.bindpass !== '';
  const asService = <T>(work: (d: Directory) => Promise<T>) =>
    pool.use(connectionOf(config), async () => connectionOf(config), work);
  let entryName = username;
  let bindDn: string;
  // Established: a search finds the DN with a service account, or anonymously with `discoverdn` alone.
  if (hasServiceBind || config.discoverdn) {
    const filter = renderFilter(config.userfilter, { UserAttr: config.userattr, Username: username });
    const search = (d: Directory) => d.search(config.userdn, { scope: 'sub', filter, attributes: [config.userattr] });
    const entries = hasServiceBind ? await asService(search) : await anonymousSearch(config, clock, search);
    const [entry] = entries;
    if (entries.length !== 1 || !entry) throw badCredentials();
    bindDn = entry.dn;
    entryName = first(entry, config.userattr) ?? username;
  } else if (config.upndomain) {
    bindDn = `${username}@${config.upndomain}`;
  } else {
    bindDn = `${config.userattr}=${escapeDnValue(username)},${config.userdn}`;
  }
  const userClient = await bindAsUser(config, clock, bindDn, password);
  // After the user's bind, searches run as `binddn` when there is one, else as the user (established).
  const searchAsLoginSession: SearchAs = (work) =>
    hasServiceBind ? asService(work) : work(clientDirectory(userClient));
  try {
    const userDn = config.upndomain ? await upnEntryDn(config, username, searchAsLoginSession) : bindDn;
    return { entryName, groups: await directoryGroups(config, searchAsLoginSession, userDn, username) };
  } finally {
    await userClient.unbind().catch(() => {});
  }
}

/**
 * The DN of the entry whose `userPrincipalName` is `<username>@<upndomain>`, searched under
 * `userdn`: the `{{.UserDN}}` of the group search when logins bind by UPN (the established
 * `GetUserDN`). With several matches the last wins and with none it is empty, as established.
 */
async function upnEntryDn(config: LdapAuthConfig, username: string, searchAs: SearchAs): Promise<string> {
  const filter = `(userPrincipalName=${escapeFilterValue(`${username}@${config.upndomain}`)})`;
  const entries = await searchAs((d) => d.search(config.userdn, { scope: 'sub', filter, attributes: ['dn'] }));
  return entries.at(-1)?.dn ?? '';
}

async function bindAsUser(config: LdapAuthConfig, clock: Clock, dn: string, password: string): Promise<Client> {
  try {
    return await connectBound(connectionOf(config, { dn, password }), clock.now(), async () => undefined);
  } catch (err) {
    const cause = err instanceof UpstreamError ? err.cause : undefined;
    if (cause instanceof ResultCodeError && REFUSED_BIND.has(cause.code)) throw badCredentials();
    throw err;
  }
}

/** `work` on a connection of its own bound anonymously, closed afterwards. */
async function anonymousSearch<T>(
  config: LdapAuthConfig,
  clock: Clock,
  work: (d: Directory) => Promise<T>,
): Promise<T> {
  const client = await connectBound(connectionOf(config), clock.now(), async () => undefined, true);
  try {
    return await work(clientDirectory(client));
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** A `Directory` over one client already bound (only `search` is used on it). */
function clientDirectory(client: Client): Directory {
  const refuse = () => Promise.reject(new UpstreamError('not available on this connection'));
  return {
    setPassword: refuse,
    apply: refuse,
    search: async (base, o) => {
      try {
        return (await client.search(base, o)).searchEntries;
      } catch (err) {
        throw upstream('LDAP search failed', err);
      }
    },
  };
}
