import { checkConfig, parseUrls } from '../../engines/ldap/index.js';
import { definePath, field, withoutSensitive } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, tokenFields, tokenReadData } from '../common/index.js';
import { connectionOf } from './directory-login.js';
import { checkTemplate } from './filters.js';
import { DEFAULT_CONFIG, type LdapAuthConfig, ldapAuthStore } from './ldap-auth-store.js';

const TLS_VERSIONS = ['tls10', 'tls11', 'tls12', 'tls13'] as const;
const DEREF_VALUES = ['never', 'finding', 'searching', 'always'] as const;

const fields = {
  url: field.string({ description: 'One URL or a comma-delimited list, tried in order (default ldap://127.0.0.1).' }),
  binddn: field.string({ description: 'DN to bind as to search users and groups.' }),
  bindpass: field.string({ description: 'Password of binddn (never shown).', sensitive: true }),
  userdn: field.string({ description: 'Base DN of users.' }),
  userattr: field.string({ description: 'Attribute holding the username (default cn).' }),
  userfilter: field.string({ description: 'Filter template of the user search ({{.UserAttr}}, {{.Username}}).' }),
  upndomain: field.string({ description: 'Bind as <username>@<upndomain> (Active Directory).' }),
  discoverdn: field.bool({ description: 'Find the user DN by a search (anonymous without binddn).' }),
  groupdn: field.string({ description: 'Base DN of the group search; empty: no groups.' }),
  groupfilter: field.string({ description: 'Filter template of the group search ({{.UserDN}}, {{.Username}}).' }),
  groupattr: field.string({ description: 'Attribute naming a group (default cn; memberOf for DN values).' }),
  starttls: field.bool({ description: 'Issue StartTLS on ldap:// URLs.' }),
  insecure_tls: field.bool({ description: 'Skip verifying the server certificate.' }),
  certificate: field.string({ description: 'CA certificate (PEM) of the directory.' }),
  client_tls_cert: field.string({ description: 'Client certificate (PEM).' }),
  client_tls_key: field.string({ description: 'Key of the client certificate (never shown).', sensitive: true }),
  tls_min_version: field.enum({ description: 'Lowest TLS version.', values: TLS_VERSIONS }),
  tls_max_version: field.enum({ description: 'Highest TLS version.', values: TLS_VERSIONS }),
  deny_null_bind: field.bool({ description: 'Refuse empty passwords (always on here).' }),
  case_sensitive_names: field.bool({ description: 'Keep the case of user and group names.' }),
  username_as_alias: field.bool({ description: 'Alias name is the typed username rather than the entry’s userattr.' }),
  anonymous_group_search: field.bool({ description: 'Accepted; group searches use binddn when set.' }),
  use_token_groups: field.bool({
    description:
      'Groups from the user entry’s tokenGroups (Active Directory; nested groups too) instead of groupfilter.',
  }),
  dereference_aliases: field.enum({
    description: 'When searches dereference aliases: never (default), finding, searching, always.',
    values: DEREF_VALUES,
  }),
  max_page_size: field.int({ description: 'Page size of group searches (paged results control); 0: no paging.' }),
  connection_timeout: field.durationSeconds({ description: 'Time to connect before the next URL (default 30s).' }),
  request_timeout: field.durationSeconds({ description: 'Time allowed for each request (default 90s).' }),
  ...tokenFields,
};

type ConfigData = Record<string, unknown>;
const STRINGS = [
  'binddn',
  'bindpass',
  'userdn',
  'userattr',
  'userfilter',
  'upndomain',
  'groupdn',
  'groupfilter',
  'groupattr',
  'certificate',
  'client_tls_cert',
  'client_tls_key',
  'tls_min_version',
  'tls_max_version',
  'dereference_aliases',
] as const;
const BOOLS = [
  'discoverdn',
  'starttls',
  'insecure_tls',
  'deny_null_bind',
  'case_sensitive_names',
  'username_as_alias',
  'anonymous_group_search',
  'use_token_groups',
] as const;

/** `config`: the directory and how users and groups are found; bindpass and the client key are write-only. */
export function pathConfig(onChange: () => void) {
  return definePath({
    pattern: 'config',
    fields,
    operations: {
      update: {
        summary: 'Configure the directory.',
        handler: async ({ storage, data, supplied }) => {
          const current = (await ldapAuthStore.config(storage)) ?? DEFAULT_CONFIG;
          const next = merged(current, data as ConfigData, supplied);
          check(next);
          await ldapAuthStore.putConfig(storage, next);
          onChange();
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration (without its sensitive fields: bindpass and client_tls_key).',
        handler: async ({ storage }) => {
          const c = (await ldapAuthStore.config(storage)) ?? DEFAULT_CONFIG;
          const { token, url, ...rest } = c;
          return { data: { ...withoutSensitive(fields, rest), url: url.join(','), ...tokenReadData(token) } };
        },
      },
    },
    help: {
      synopsis: 'Configure the LDAP auth method.',
      description:
        'Users are found by a search as binddn (userfilter under userdn), or at <userattr>=<username>,<userdn>, or ' +
        'as <username>@<upndomain>; groups by groupfilter under groupdn. Connections as binddn are pooled.',
    },
  });
}

function merged(current: LdapAuthConfig, data: ConfigData, supplied: ReadonlySet<string>): LdapAuthConfig {
  const next: LdapAuthConfig = { ...current };
  const mutable = next as unknown as Record<string, unknown>;
  if (supplied.has('url')) next.url = parseUrls(String(data.url ?? ''));
  for (const key of STRINGS)
    if (supplied.has(key)) mutable[key] = String(data[key] ?? '').trim() || (DEFAULT_CONFIG[key] as string);
  for (const key of BOOLS) if (supplied.has(key)) mutable[key] = data[key] === true;
  for (const key of ['connection_timeout', 'request_timeout'] as const)
    if (supplied.has(key)) next[key] = Number(data[key]) || DEFAULT_CONFIG[key];
  if (supplied.has('max_page_size')) next.max_page_size = Number(data.max_page_size) || 0;
  next.token = applyTokenFields(current.token, data, supplied);
  return next;
}

function check(c: LdapAuthConfig): void {
  if ((c.binddn === '') !== (c.bindpass === ''))
    throw new InvalidRequestError('binddn and bindpass must be set together');
  if (!c.binddn && !c.upndomain && !c.userdn && !c.discoverdn)
    throw new InvalidRequestError('userdn (or binddn, or upndomain, or discoverdn) must be set');
  checkTemplate('userfilter', c.userfilter, ['UserAttr', 'Username']);
  checkTemplate('groupfilter', c.groupfilter, ['UserDN', 'Username']);
  if (c.connection_timeout <= 0 || c.request_timeout <= 0) throw new InvalidRequestError('timeouts must be positive');
  // The engine's checks of TLS material and versions (binddn/bindpass are not required for auth).
  checkConfig({ ...connectionOf(c), binddn: c.binddn || 'x', bindpass: c.bindpass || 'x' });
}
