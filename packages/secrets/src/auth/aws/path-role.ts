import type { Clock, Random } from '@ward/base';
import { randomUuid } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, roleListPaths, roleReadDelete, tokenFields } from '../common/index.js';
import { type AwsRole, awsAuthStore } from './aws-auth-store.js';
import { resolveRoleIds } from './resolve-principal.js';
import { checkRole, EC2_BOUNDS } from './role-rules.js';

const LIST_FIELDS = [...EC2_BOUNDS, 'bound_iam_principal_arn'] as const;

const listField = (what: string) => field.commaStrings({ description: `${what} (any one of them matches).` });

const roleFields = {
  role: field.path({ description: 'Role name (case-insensitive).', caseInsensitive: true }),
  auth_type: field.string({ description: '`iam` (default) or `ec2`.' }),
  bound_ami_id: listField('AMI ids the instance must run'),
  bound_account_id: listField('AWS account ids'),
  bound_region: listField('Regions'),
  bound_vpc_id: listField('VPC ids'),
  bound_subnet_id: listField('Subnet ids'),
  bound_iam_role_arn: listField('ARNs of the role of the instance profile (prefix with `*`)'),
  bound_iam_instance_profile_arn: listField('ARNs of the instance profile (prefix with `*`)'),
  bound_ec2_instance_id: listField('EC2 instance ids'),
  bound_iam_principal_arn: listField('IAM principal ARNs iam logins must come from (trailing `*` globs)'),
  resolve_aws_unique_ids: field.bool({
    description: 'Bind principals by their unique id, asked of IAM (default true).',
  }),
  inferred_entity_type: field.string({ description: '`ec2_instance`: iam logins are instances, bound as ec2 ones.' }),
  inferred_aws_region: field.string({ description: 'Region the inferred instances are looked up in.' }),
  role_tag: field.string({ description: 'Key of the instance tag holding a role tag (ec2 only).' }),
  allow_instance_migration: field.bool({ description: 'ec2: accept a newer pendingTime for a known instance.' }),
  disallow_reauthentication: field.bool({ description: 'ec2: one login per instance.' }),
  ...tokenFields,
};

function listsOf(data: Record<string, unknown>, supplied: ReadonlySet<string>, current: AwsRole | undefined) {
  const out = {} as Record<(typeof LIST_FIELDS)[number], string[]>;
  for (const name of LIST_FIELDS)
    out[name] = supplied.has(name) ? ((data[name] as string[] | undefined) ?? []) : (current?.[name] ?? []);
  return out;
}

/** `role/:role`, LIST `role/` and `roles/`. */
export function pathRoles(random: Random, clock: Clock): PathDefinition[] {
  return [
    ...roleListPaths(awsAuthStore, ['roles/', 'role/']),
    definePath({
      pattern: 'role/:role',
      fields: roleFields,
      operations: {
        update: {
          summary: 'Create or update a role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await awsAuthStore.role(storage, data.role);
            const pick = <K extends keyof AwsRole>(
              name: K & string,
              given: AwsRole[K] | undefined,
              fallback: AwsRole[K],
            ) => (supplied.has(name) && given !== undefined ? given : (current?.[name] ?? fallback));
            const authType = pick('auth_type', (data.auth_type || undefined) as AwsRole['auth_type'], 'iam');
            if (current && supplied.has('auth_type') && authType !== current.auth_type)
              throw new InvalidRequestError('changing auth_type on a role is not allowed');
            if (authType !== 'iam' && authType !== 'ec2')
              throw new InvalidRequestError(`unrecognized auth_type: ${JSON.stringify(authType)}`);
            const role: AwsRole = {
              role_id: current?.role_id ?? randomUuid(random),
              auth_type: authType,
              ...listsOf(data, supplied, current),
              bound_iam_principal_id: current?.bound_iam_principal_id ?? [],
              resolve_aws_unique_ids: pick('resolve_aws_unique_ids', data.resolve_aws_unique_ids, true),
              inferred_entity_type: pick('inferred_entity_type', data.inferred_entity_type, ''),
              inferred_aws_region: pick('inferred_aws_region', data.inferred_aws_region, ''),
              role_tag: pick('role_tag', data.role_tag, ''),
              allow_instance_migration: pick('allow_instance_migration', data.allow_instance_migration, false),
              disallow_reauthentication: pick('disallow_reauthentication', data.disallow_reauthentication, false),
              hmac_key: current?.hmac_key ?? Buffer.from(random.bytes(32)).toString('base64'),
              token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
            };
            if (current?.resolve_aws_unique_ids && !role.resolve_aws_unique_ids)
              throw new InvalidRequestError('changing resolve_aws_unique_ids from true to false is not allowed');
            if (role.allow_instance_migration && role.disallow_reauthentication)
              throw new InvalidRequestError(
                'cannot specify both disallow_reauthentication and allow_instance_migration',
              );
            checkRole(role);
            const arnsChanged =
              !current || current.bound_iam_principal_arn.join('\n') !== role.bound_iam_principal_arn.join('\n');
            if (arnsChanged || (role.resolve_aws_unique_ids && !current?.resolve_aws_unique_ids))
              role.bound_iam_principal_id = role.resolve_aws_unique_ids
                ? await resolveRoleIds(storage, await awsAuthStore.client(storage), role.bound_iam_principal_arn, clock)
                : [];
            await awsAuthStore.putRole(storage, data.role, role);
            return undefined;
          },
        },
        // The role tag HMAC key is never shown.
        ...roleReadDelete(awsAuthStore, { capture: 'role', view: ({ token: _t, hmac_key: _key, ...rest }) => rest }),
      },
      help: {
        synopsis: 'Manage a role of the AWS auth method.',
        description:
          '`iam` roles bind the principal that signed an sts:GetCallerIdentity request; `ec2` roles bind the ' +
          'instance whose signed identity document is presented.',
      },
    }),
  ];
}
