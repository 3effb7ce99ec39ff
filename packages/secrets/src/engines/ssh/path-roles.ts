import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { parseCidrList } from './cidrs.js';
import { roles, type SshRole } from './stores.js';

const fields = {
  name: field.path({ description: 'Name of the role.' }),
  key_type: field.string({ description: '`otp` or `ca`.' }),
  default_user: field.string({ description: 'User of OTPs and the principal of certificates when none is asked for.' }),
  default_user_template: field.bool({
    description: '`default_user` may hold identity templates (`{{identity.entity.name}}`, …), filled per caller.',
  }),
  allowed_users: field.string({ description: 'Comma-separated users (principals) allowed; `*`: any.' }),
  allowed_users_template: field.bool({
    description: "Entries of `allowed_users` may hold identity templates, filled from the caller's entity.",
  }),
  cidr_list: field.string({ description: 'OTP: comma-separated CIDR blocks the role serves.' }),
  exclude_cidr_list: field.string({ description: 'OTP: blocks excluded from `cidr_list`.' }),
  port: field.int({ description: 'OTP: the SSH port reported with the OTP.' }),
  allowed_domains: field.string({ description: 'CA, host certificates: comma-separated domains.' }),
  allowed_domains_template: field.bool({
    description: "Entries of `allowed_domains` may hold identity templates, filled from the caller's entity.",
  }),
  allow_commas_in_identity_templates: field.bool({
    description: 'A filled template value may hold commas, adding several principals (only for trusted identity data).',
  }),
  allow_bare_domains: field.bool({ description: 'Host certificates may name an allowed domain itself.' }),
  allow_subdomains: field.bool({ description: 'Host certificates may name subdomains of allowed domains.' }),
  allow_user_certificates: field.bool({ description: 'The role signs user certificates.' }),
  allow_host_certificates: field.bool({ description: 'The role signs host certificates.' }),
  allow_user_key_ids: field.bool({ description: 'Callers may choose `key_id`.' }),
  key_id_format: field.string({
    description: 'Key ID template: `{{token_display_name}}`, `{{role_name}}`, `{{public_key_hash}}`.',
  }),
  allowed_critical_options: field.string({
    description: 'Comma-separated critical options callers may ask for (empty: any).',
  }),
  allowed_extensions: field.string({
    description: 'Comma-separated extensions callers may ask for (`*`: any; empty: none).',
  }),
  default_critical_options: field.object({ description: 'Critical options when the caller asks for none.' }),
  default_extensions: field.object({ description: 'Extensions when the caller asks for none.' }),
  default_extensions_template: field.bool({
    description: 'Values of `default_extensions` may hold identity templates, filled per caller.',
  }),
  allowed_user_key_lengths: field.object({
    description: 'Key types (`rsa`, `ec`, `ed25519`) and the sizes allowed for each.',
  }),
  algorithm_signer: field.enum({
    description: 'RSA CA signature: `default` (`rsa-sha2-256`), `rsa-sha2-256`, `rsa-sha2-512`, `ssh-rsa`.',
    values: ['', 'default', 'rsa-sha2-256', 'rsa-sha2-512', 'ssh-rsa'],
  }),
  ttl: field.durationSeconds({ description: 'Certificate TTL (0: the mount default).' }),
  max_ttl: field.durationSeconds({ description: 'Longest certificate TTL (0: the mount max).' }),
  not_before_duration: field.durationSeconds({ description: 'Backdating of `valid after`.' }),
  key: field.string({ description: 'Dynamic-key roles only: ignored.' }),
  admin_user: field.string({ description: 'Dynamic-key roles only: ignored.' }),
  key_bits: field.int({ description: 'Dynamic-key roles only: ignored.' }),
  install_script: field.string({ description: 'Dynamic-key roles only: ignored.' }),
  key_option_specs: field.string({ description: 'Dynamic-key roles only: ignored.' }),
};

type Input = { [K in keyof typeof fields]: unknown };

/** `roles/` (LIST): names with each role's `key_type` under `key_info`. */
export function pathListRoles(): PathDefinition {
  return definePath({
    pattern: 'roles/',
    fields: {},
    operations: {
      list: {
        summary: 'List the roles.',
        handler: async ({ storage }) => {
          const keys = await roles.list(storage);
          const info: Record<string, unknown> = Object.create(null);
          for (const name of keys) info[name] = { key_type: (await roles.get(storage, name))?.key_type };
          return { data: { keys, key_info: info } };
        },
      },
    },
    help: { synopsis: 'List the roles.', description: 'With `key_info`.' },
  });
}

/** `roles/:name`: an OTP role or a CA (certificate-signing) role. */
export function pathRoles(): PathDefinition {
  return definePath({
    pattern: 'roles/:name',
    fields,
    existenceCheck: async ({ storage, data }) => (await roles.get(storage, data.name)) !== undefined,
    operations: {
      read: {
        summary: 'Read a role.',
        handler: async ({ storage, data }) => {
          const role = await roles.get(storage, data.name);
          if (!role) throw new NotFoundError('');
          return { data: roleView(role) };
        },
      },
      update: {
        summary: 'Create or replace a role.',
        handler: async ({ storage, data, supplied }) => {
          await roles.put(storage, data.name, roleFrom(data as Input, supplied));
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a role.',
        handler: async ({ storage, data }) => {
          await roles.delete(storage, data.name);
          return undefined;
        },
      },
    },
    help: { synopsis: 'Manage SSH roles.', description: '`key_type` `otp` or `ca`; `dynamic` is no longer supported.' },
  });
}

/** The role a write describes (a write replaces the role, as established). */
function roleFrom(data: Input, supplied: ReadonlySet<string>): SshRole {
  const str = (name: keyof Input) => String(data[name] ?? '');
  const bool = (name: keyof Input) => data[name] === true;
  const keyType = str('key_type');
  if (!keyType) throw new InvalidRequestError('missing key type');
  if (keyType === 'dynamic') throw new InvalidRequestError('dynamic key type roles are no longer supported');
  if (keyType !== 'otp' && keyType !== 'ca') throw new InvalidRequestError('invalid key type');
  if (keyType === 'otp') {
    if (!str('default_user')) throw new InvalidRequestError('missing default user');
    parseCidrList(str('cidr_list'), 'cidr_list');
    parseCidrList(str('exclude_cidr_list'), 'exclude_cidr_list');
  }
  if (keyType === 'ca' && !bool('allow_user_certificates') && !bool('allow_host_certificates')) {
    throw new InvalidRequestError(
      "Either 'allow_user_certificates' or 'allow_host_certificates' must be set to 'true'",
    );
  }
  const ttl = Number(data.ttl ?? 0);
  const maxTtl = Number(data.max_ttl ?? 0);
  if (maxTtl && ttl > maxTtl) throw new InvalidRequestError('ttl cannot be greater than max_ttl');
  return {
    key_type: keyType,
    default_user: str('default_user'),
    default_user_template: bool('default_user_template'),
    allowed_users: str('allowed_users'),
    allowed_users_template: bool('allowed_users_template'),
    cidr_list: str('cidr_list'),
    exclude_cidr_list: str('exclude_cidr_list'),
    port: supplied.has('port') && Number(data.port) ? Number(data.port) : 22,
    allowed_domains: str('allowed_domains'),
    allowed_domains_template: bool('allowed_domains_template'),
    allow_bare_domains: bool('allow_bare_domains'),
    allow_subdomains: bool('allow_subdomains'),
    allow_commas_in_identity_templates: bool('allow_commas_in_identity_templates'),
    allow_user_certificates: bool('allow_user_certificates'),
    allow_host_certificates: bool('allow_host_certificates'),
    allow_user_key_ids: bool('allow_user_key_ids'),
    key_id_format: str('key_id_format'),
    allowed_critical_options: str('allowed_critical_options'),
    allowed_extensions: str('allowed_extensions'),
    default_critical_options: stringValues(data.default_critical_options, 'default_critical_options'),
    default_extensions: stringValues(data.default_extensions, 'default_extensions'),
    default_extensions_template: bool('default_extensions_template'),
    allowed_user_key_lengths: keyLengths(data.allowed_user_key_lengths),
    algorithm_signer: str('algorithm_signer') || 'default',
    ttl,
    max_ttl: maxTtl,
    not_before_duration: supplied.has('not_before_duration') ? Number(data.not_before_duration) : 30,
  };
}

function stringValues(raw: unknown, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((raw as Record<string, unknown>) ?? {})) {
    if (typeof v !== 'string') throw new InvalidRequestError(`${name}: the value of "${k}" must be a string`);
    out[k] = v;
  }
  return out;
}

function keyLengths(raw: unknown): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [k, v] of Object.entries((raw as Record<string, unknown>) ?? {})) {
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((n) => Number.isInteger(Number(n))))
      throw new InvalidRequestError(`allowed_user_key_lengths: bad lengths for "${k}"`);
    out[k] = list.map(Number);
  }
  return out;
}

function roleView(r: SshRole): Record<string, unknown> {
  if (r.key_type === 'otp') {
    return {
      allowed_users: r.allowed_users,
      cidr_list: r.cidr_list,
      default_user: r.default_user,
      exclude_cidr_list: r.exclude_cidr_list,
      key_type: r.key_type,
      port: r.port,
    };
  }
  const { cidr_list: _c, exclude_cidr_list: _e, port: _p, ...rest } = r;
  return { ...rest, allow_commas_in_identity_templates: r.allow_commas_in_identity_templates === true };
}

/** The role named `name`; 400 when there is none. */
export async function requireRole(storage: Storage, name: string): Promise<SshRole> {
  const role = await roles.get(storage, name);
  if (!role) throw new InvalidRequestError(`Unknown role: ${name}`);
  return role;
}
