import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { checkConfig, parseUrls } from './config-rules.js';
import { configStore, DEFAULT_USERATTR, type LdapConfig, type Schema } from './config-store.js';
import type { ConnectionPool } from './connection-pool.js';
import { DEFAULT_PASSWORD_LENGTH } from './passwords.js';

const TLS_VERSIONS = ['tls10', 'tls11', 'tls12', 'tls13'] as const;

const fields = {
  binddn: field.string({ description: 'DN the engine binds as; needs rights to search and change passwords.' }),
  bindpass: field.string({ description: 'Password of `binddn`. Never returned.' }),
  url: field.string({ description: 'One URL or a comma-delimited list, tried in order.', default: 'ldap://127.0.0.1' }),
  password_policy: field.string({ description: 'Name of a password policy (`sys/policies/password`).' }),
  schema: field.enum({
    description: 'Directory kind: `ldapdir` (`openldap` accepted), `ad` or `racf`.',
    values: ['ldapdir', 'openldap', 'ad', 'racf'],
    default: 'ldapdir',
  }),
  credential_type: field.enum({
    description: 'What is set: `password`, or `phrase` (RACF: `racfPassPhrase` instead of `racfPassword`).',
    values: ['password', 'phrase'],
    default: 'password',
  }),
  userdn: field.string({ description: 'Base DN of user searches (static roles without `dn`).' }),
  userattr: field.string({ description: 'Search attribute; by schema `cn`, `userPrincipalName` or `racfid`.' }),
  upndomain: field.string({ description: 'Bind as `<binddn>@<upndomain>`.' }),
  connection_timeout: field.durationSeconds({ description: 'Time to connect before the next URL.', default: 30 }),
  request_timeout: field.durationSeconds({ description: 'Time allowed for each request.', default: 90 }),
  starttls: field.bool({ description: 'Issue StartTLS after connecting to an `ldap://` URL.', default: false }),
  insecure_tls: field.bool({ description: "Skip verifying the server's certificate.", default: false }),
  certificate: field.string({ description: 'CA certificate (PEM) the server certificate must chain to.' }),
  client_tls_cert: field.string({ description: 'Client certificate (PEM).' }),
  client_tls_key: field.string({ description: 'Key of the client certificate (PEM). Never returned.' }),
  tls_min_version: field.enum({ description: 'Lowest TLS version.', values: TLS_VERSIONS, default: 'tls12' }),
  tls_max_version: field.enum({ description: 'Highest TLS version.', values: TLS_VERSIONS, default: 'tls12' }),
  length: field.int({ description: 'Deprecated: generated password length (default 64).' }),
  skip_static_role_import_rotation: field.bool({
    description: "Default of static roles' `skip_import_rotation`.",
    default: false,
  }),
};

type ConfigInput = { [K in keyof typeof fields]: unknown };

/** `config`: where the directory is and how to bind; `bindpass` is write-only. */
export function pathConfig(pool: ConnectionPool): PathDefinition {
  return definePath({
    pattern: 'config',
    fields,
    operations: {
      read: {
        summary: 'Read the directory configuration (without bind password and client key).',
        handler: async ({ storage }) => {
          const config = await configStore.get(storage);
          if (!config) throw new NotFoundError('');
          return { data: configView(config) };
        },
      },
      update: {
        summary: 'Configure the directory connection.',
        handler: async ({ storage, data, supplied }) => {
          const stored = await configStore.get(storage);
          await configStore.put(storage, merged(stored, data as ConfigInput, supplied));
          pool.drop();
          return undefined;
        },
      },
      delete: {
        summary: 'Delete the directory configuration.',
        handler: async ({ storage }) => {
          await configStore.delete(storage);
          pool.drop();
          return undefined;
        },
      },
    },
    existenceCheck: async ({ storage }) => (await configStore.get(storage)) !== undefined,
    help: {
      synopsis: 'Configure the directory (LDAP) connection.',
      description: `URLs are tried in order; passwords are ${DEFAULT_PASSWORD_LENGTH} base62 characters unless \`length\` or \`password_policy\` says otherwise (not both).`,
    },
  });
}

/** Defaults apply when creating; an update changes only the fields sent. */
function merged(stored: LdapConfig | undefined, data: ConfigInput, supplied: ReadonlySet<string>): LdapConfig {
  const has = (name: string) => supplied.has(name) || stored === undefined;
  const policy = supplied.has('password_policy') ? String(data.password_policy ?? '') : (stored?.password_policy ?? '');
  if (supplied.has('length') && policy) {
    throw new InvalidRequestError("cannot set both 'password_policy' and 'length'");
  }
  const schema = (has('schema') ? normalizeSchema(String(data.schema)) : stored?.schema) ?? 'ldapdir';
  const pick = <K extends keyof LdapConfig>(name: K, fallback: LdapConfig[K]): LdapConfig[K] =>
    has(name) ? ((data[name as keyof ConfigInput] ?? fallback) as LdapConfig[K]) : (stored?.[name] ?? fallback);
  const config: LdapConfig = {
    binddn: pick('binddn', ''),
    bindpass: pick('bindpass', ''),
    url: has('url') ? parseUrls(String(data.url)) : (stored?.url ?? []),
    schema,
    credential_type: pick('credential_type', 'password'),
    userdn: pick('userdn', ''),
    userattr: (has('userattr') && data.userattr ? String(data.userattr) : stored?.userattr) || DEFAULT_USERATTR[schema],
    upndomain: pick('upndomain', ''),
    connection_timeout: pick('connection_timeout', 30),
    request_timeout: pick('request_timeout', 90),
    starttls: pick('starttls', false),
    insecure_tls: pick('insecure_tls', false),
    certificate: pick('certificate', ''),
    client_tls_cert: pick('client_tls_cert', ''),
    client_tls_key: pick('client_tls_key', ''),
    tls_min_version: pick('tls_min_version', 'tls12'),
    tls_max_version: pick('tls_max_version', 'tls12'),
    password_policy: policy,
    // A policy replaces a length set before it.
    length: supplied.has('length') ? Number(data.length) : policy ? 0 : (stored?.length ?? 0),
    skip_static_role_import_rotation: pick('skip_static_role_import_rotation', false),
    // A bind password sent by the operator replaces whatever rotate-root had under way.
    pending_bindpass: supplied.has('bindpass') ? '' : (stored?.pending_bindpass ?? ''),
    last_bindpass: stored?.last_bindpass ?? '',
    last_bind_password_rotation_ms: stored?.last_bind_password_rotation_ms ?? 0,
  };
  checkConfig(config);
  return config;
}

function normalizeSchema(schema: string): Schema {
  return schema === 'openldap' ? 'ldapdir' : (schema as Schema);
}

function configView(c: LdapConfig): Record<string, unknown> {
  return {
    binddn: c.binddn,
    url: c.url.join(','),
    schema: c.schema,
    credential_type: c.credential_type ?? 'password',
    userdn: c.userdn,
    userattr: c.userattr,
    upndomain: c.upndomain,
    connection_timeout: c.connection_timeout,
    request_timeout: c.request_timeout,
    starttls: c.starttls,
    insecure_tls: c.insecure_tls,
    certificate: c.certificate,
    client_tls_cert: c.client_tls_cert,
    tls_min_version: c.tls_min_version,
    tls_max_version: c.tls_max_version,
    case_sensitive_names: false,
    skip_static_role_import_rotation: c.skip_static_role_import_rotation,
    ...(c.password_policy ? { password_policy: c.password_policy } : { length: c.length || DEFAULT_PASSWORD_LENGTH }),
    ...(c.last_bind_password_rotation_ms
      ? { last_bind_password_rotation: new Date(c.last_bind_password_rotation_ms).toISOString() }
      : {}),
  };
}
