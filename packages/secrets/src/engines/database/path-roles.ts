import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { CREDENTIAL_TYPES, type CredentialType, checkCredentialConfig } from './credential-config.js';
import { notFound } from './deps.js';
import { type DynamicRole, dynamicRoles } from './role-store.js';
import type { UsernameTemplates } from './usernames.js';

const fields = {
  name: field.path({ description: 'Name of the role.' }),
  db_name: field.string({ description: 'Name of the connection (`config/:name`) the role uses.' }),
  default_ttl: field.durationSeconds({ description: 'TTL of issued credentials (0: the mount default).' }),
  max_ttl: field.durationSeconds({
    description: 'Longest life of issued credentials, renewals included (0: the mount max).',
  }),
  creation_statements: field.strings({
    description:
      'Statements that create the user (`{{name}}`, `{{password}}`, `{{expiration}}`); `;`-separated, a JSON list or base64.',
  }),
  revocation_statements: field.strings({ description: 'Statements that drop the user (empty: the plugin default).' }),
  rollback_statements: field.strings({ description: 'Statements run when creation fails partway.' }),
  renew_statements: field.strings({ description: 'Statements run on renewal (empty: the plugin default).' }),
  credential_type: field.string({
    description:
      '`password` (default), `rsa_private_key` or `client_certificate` (kept; the built-in plugins issue only passwords).',
  }),
  credential_config: field.stringMap({
    description:
      'Settings of the type: `password_policy`; `format`, `key_bits`; `common_name_template`, `ca_cert`, `ca_private_key`, `key_type`, `key_bits`, `signature_bits`.',
  }),
};

type Input = { [K in keyof typeof fields]: unknown };

/** `roles/` (LIST). */
export function pathListRoles(): PathDefinition {
  return definePath({
    pattern: 'roles/',
    fields: {},
    operations: {
      list: {
        summary: 'List the dynamic roles.',
        handler: async ({ storage }) => ({ data: { keys: await dynamicRoles.list(storage) } }),
      },
    },
    help: { synopsis: 'List the dynamic roles.', description: 'Names only, sorted.' },
  });
}

/** `roles/:name`: a dynamic role, whose `creds` are users created per request. */
export function pathRoles(usernames: UsernameTemplates): PathDefinition {
  return definePath({
    pattern: 'roles/:name',
    fields,
    existenceCheck: async ({ storage, data }) => (await dynamicRoles.get(storage, data.name)) !== undefined,
    operations: {
      read: {
        summary: 'Read a dynamic role.',
        handler: async ({ storage, data }) => {
          const role = (await dynamicRoles.get(storage, data.name)) ?? notFound();
          const { credential_config, ...rest } = role;
          return { data: { ...rest, ...(Object.keys(credential_config).length > 0 ? { credential_config } : {}) } };
        },
      },
      update: {
        summary: 'Create or change a dynamic role.',
        handler: async ({ storage, data, supplied }) => {
          const stored = await dynamicRoles.get(storage, data.name);
          await dynamicRoles.put(storage, data.name, merged(stored, data as Input, supplied, usernames));
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a dynamic role (users already issued stay until their leases end).',
        handler: async ({ storage, data }) => {
          await dynamicRoles.delete(storage, data.name);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Manage dynamic roles.',
      description: 'Creation runs in one transaction; revocation and expiry drop the user.',
    },
  });
}

function merged(
  stored: DynamicRole | undefined,
  data: Input,
  supplied: ReadonlySet<string>,
  usernames: UsernameTemplates,
): DynamicRole {
  const pick = <K extends keyof DynamicRole>(name: K, fallback: DynamicRole[K]): DynamicRole[K] =>
    supplied.has(name) ? ((data[name as keyof Input] ?? fallback) as DynamicRole[K]) : (stored?.[name] ?? fallback);
  const credentialType = (String(pick('credential_type', 'password')) || 'password') as CredentialType;
  if (!CREDENTIAL_TYPES.includes(credentialType))
    throw new InvalidRequestError(`invalid credential_type "${credentialType}"`);
  // A type changed without a config checks the stored config against the new type, as established.
  const credentialConfig = checkCredentialConfig(credentialType, pick('credential_config', {}), (source) =>
    usernames.render(source, { RoleName: '', DisplayName: '' }, Number.MAX_SAFE_INTEGER),
  );
  const role: DynamicRole = {
    db_name: pick('db_name', ''),
    default_ttl: pick('default_ttl', 0),
    max_ttl: pick('max_ttl', 0),
    creation_statements: pick('creation_statements', []),
    revocation_statements: pick('revocation_statements', []),
    rollback_statements: pick('rollback_statements', []),
    renew_statements: pick('renew_statements', []),
    credential_type: credentialType,
    credential_config: credentialConfig,
  };
  if (!role.db_name) throw new InvalidRequestError('empty database name attribute');
  if (role.max_ttl !== 0 && role.default_ttl > role.max_ttl) {
    throw new InvalidRequestError('ttl cannot be greater than max_ttl');
  }
  return role;
}
