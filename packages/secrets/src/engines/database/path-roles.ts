import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { notFound } from './deps.js';
import { type DynamicRole, dynamicRoles } from './role-store.js';

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
  credential_type: field.enum({
    description: 'Kind of credential issued: `password` (the built-in plugins issue no other kind).',
    values: ['password', 'rsa_private_key', 'client_certificate'],
  }),
  credential_config: field.stringMap({ description: 'Settings of the credential type.' }),
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
export function pathRoles(): PathDefinition {
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
          await dynamicRoles.put(storage, data.name, merged(stored, data as Input, supplied));
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

function merged(stored: DynamicRole | undefined, data: Input, supplied: ReadonlySet<string>): DynamicRole {
  const pick = <K extends keyof DynamicRole>(name: K, fallback: DynamicRole[K]): DynamicRole[K] =>
    supplied.has(name) ? ((data[name as keyof Input] ?? fallback) as DynamicRole[K]) : (stored?.[name] ?? fallback);
  const credentialType = String(pick('credential_type', 'password'));
  if (credentialType !== 'password') {
    throw new InvalidRequestError(
      `credential_type "${credentialType}" is not supported by the database plugins of this server`,
    );
  }
  const role: DynamicRole = {
    db_name: pick('db_name', ''),
    default_ttl: pick('default_ttl', 0),
    max_ttl: pick('max_ttl', 0),
    creation_statements: pick('creation_statements', []),
    revocation_statements: pick('revocation_statements', []),
    rollback_statements: pick('rollback_statements', []),
    renew_statements: pick('renew_statements', []),
    credential_type: 'password',
    credential_config: pick('credential_config', {}),
  };
  if (!role.db_name) throw new InvalidRequestError('empty database name attribute');
  if (role.max_ttl !== 0 && role.default_ttl > role.max_ttl) {
    throw new InvalidRequestError('ttl cannot be greater than max_ttl');
  }
  return role;
}
