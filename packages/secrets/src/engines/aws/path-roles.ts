import { definePath, type FieldSpec, field, listPath, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { type AwsEngineRole, awsEngineStore } from './aws-engine-store.js';
import { checkEngineRole, compactPolicy, credentialTypesOf } from './role-rules.js';

const EMPTY_ROLE: AwsEngineRole = {
  credential_types: [],
  policy_arns: [],
  policy_document: '',
  role_arns: [],
  iam_groups: [],
  iam_tags: {},
  session_tags: {},
  external_id: '',
  mfa_serial_number: '',
  default_sts_ttl: 0,
  max_sts_ttl: 0,
  user_path: '',
  permissions_boundary_arn: '',
};

/** `key=value` strings or a map, as the established engine accepts tags. */
function tagsOf(raw: unknown, name: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  const items = typeof raw === 'string' ? raw.split(',').filter(Boolean) : raw;
  if (Array.isArray(items)) {
    for (const item of items) {
      const text = String(item);
      const cut = text.indexOf('=');
      if (cut <= 0) throw new InvalidRequestError(`${name}: expected key=value, got ${JSON.stringify(text)}`);
      out[text.slice(0, cut)] = text.slice(cut + 1);
    }
    return out;
  }
  if (items && typeof items === 'object') {
    for (const [k, v] of Object.entries(items)) out[k] = String(v);
    return out;
  }
  throw new InvalidRequestError(`${name}: expected a map or key=value strings`);
}

/** A field of tags: a map, or `key=value` strings (a list or comma-separated), as Go's `TypeKVPairs`. */
const tagsField = (description: string): FieldSpec<Record<string, string> | undefined> => ({
  description,
  required: false,
  requiredFor: [],
  default: undefined,
  inPath: false,
  isCaseInsensitive: false,
  isSensitive: false,
  openapi: { type: 'object' },
  parse: tagsOf,
});

const roleFields = {
  name: field.path({ description: 'Role name (case-insensitive).', caseInsensitive: true }),
  credential_type: field.commaStrings({
    description: '`iam_user`, `assumed_role`, `federation_token` or `session_token`.',
  }),
  credential_types: field.commaStrings({ description: 'Deprecated: use `credential_type`.' }),
  policy_arns: field.commaStrings({ description: 'ARNs of managed policies attached (iam_user) or passed to STS.' }),
  policy_document: field.string({ description: 'An IAM policy document (JSON): inline (iam_user) or session policy.' }),
  policy: field.string({ description: 'Deprecated: use `policy_document`.' }),
  arn: field.string({ description: 'Deprecated: use `policy_arns` or `role_arns`.' }),
  role_arns: field.commaStrings({ description: 'ARNs of the roles assumed_role credentials may assume.' }),
  iam_groups: field.commaStrings({ description: 'IAM groups iam_user users are added to.' }),
  iam_tags: tagsField('Tags of iam_user users (map or key=value list).'),
  session_tags: tagsField('Session tags of assumed_role sessions (map or key=value list).'),
  external_id: field.string({ description: 'External id passed to AssumeRole.' }),
  mfa_serial_number: field.string({ description: 'MFA device of session_token credentials.' }),
  default_sts_ttl: field.durationSeconds({ description: 'Default TTL of STS credentials (default 1h).' }),
  max_sts_ttl: field.durationSeconds({ description: 'Maximum TTL of STS credentials.' }),
  user_path: field.string({ description: 'Path of iam_user users (default /).' }),
  permissions_boundary_arn: field.string({ description: 'Permissions boundary of iam_user users.' }),
};

/** `roles/:name` and LIST `roles/`. */
export function pathRoles(): PathDefinition[] {
  return [
    listPath('roles/', (storage) => awsEngineStore.roles(storage)),
    definePath({
      pattern: 'roles/:name',
      fields: roleFields,
      operations: {
        update: {
          summary: 'Create or update a role.',
          handler: async ({ storage, data, supplied }) => {
            const current = (await awsEngineStore.role(storage, data.name)) ?? EMPTY_ROLE;
            const has = (name: string) => supplied.has(name);
            const role: AwsEngineRole = { ...current };
            if (has('credential_type')) role.credential_types = credentialTypesOf(data.credential_type ?? []);
            else if (has('credential_types')) role.credential_types = credentialTypesOf(data.credential_types ?? []);
            for (const name of ['policy_arns', 'role_arns', 'iam_groups'] as const)
              if (has(name)) role[name] = data[name] ?? [];
            for (const name of ['external_id', 'mfa_serial_number', 'permissions_boundary_arn', 'user_path'] as const)
              if (has(name)) role[name] = data[name] ?? '';
            if (has('default_sts_ttl')) role.default_sts_ttl = data.default_sts_ttl ?? 0;
            if (has('max_sts_ttl')) role.max_sts_ttl = data.max_sts_ttl ?? 0;
            if (has('iam_tags')) role.iam_tags = data.iam_tags ?? {};
            if (has('session_tags')) role.session_tags = data.session_tags ?? {};
            if (has('policy_document')) role.policy_document = compactPolicy(data.policy_document ?? '');
            else if (has('policy')) role.policy_document = compactPolicy(data.policy ?? '');
            if (has('arn') && data.arn) {
              // The legacy field: a role ARN means assumed_role, a policy ARN an attached policy.
              if (data.arn.includes(':role/')) role.role_arns = [data.arn];
              else role.policy_arns = [data.arn];
            }
            if (role.credential_types.length === 0 && (has('policy') || has('arn')))
              role.credential_types = role.role_arns.length > 0 ? ['assumed_role'] : ['iam_user', 'federation_token'];
            if (role.credential_types.includes('iam_user') && !role.user_path) role.user_path = '/';
            checkEngineRole(role);
            await awsEngineStore.putRole(storage, data.name, role);
            return undefined;
          },
        },
        read: {
          summary: 'Read a role.',
          handler: async ({ storage, data }) => {
            const role = await awsEngineStore.role(storage, data.name);
            if (!role) throw new NotFoundError('');
            const { credential_types, ...rest } = role;
            return { data: { credential_type: credential_types.join(','), ...rest } };
          },
        },
        delete: {
          summary: 'Delete a role (credentials issued under it keep their leases).',
          handler: async ({ storage, data }) => {
            await awsEngineStore.deleteRole(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage a role of the AWS engine.',
        description:
          'iam_user: a new IAM user per lease (deleted at revocation); assumed_role, federation_token, ' +
          'session_token: STS credentials, valid until they expire.',
      },
    }),
  ];
}
