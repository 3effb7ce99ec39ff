import { definePath, field, type PathDefinition, withoutSensitive } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import {
  type AwsClientConfig,
  type AwsIdentityConfig,
  awsAuthStore,
  DEFAULT_IDENTITY_CONFIG,
} from './aws-auth-store.js';

const IAM_ALIASES = ['role_id', 'unique_id', 'full_arn', 'canonical_arn'];
const EC2_ALIASES = ['role_id', 'instance_id', 'image_id'];
const IAM_METADATA = [
  'account_id',
  'auth_type',
  'canonical_arn',
  'client_arn',
  'client_user_id',
  'inferred_aws_region',
  'inferred_entity_id',
  'inferred_entity_type',
];
const EC2_METADATA = ['account_id', 'ami_id', 'auth_type', 'instance_id', 'region'];

const URL_FIELDS = ['endpoint', 'iam_endpoint', 'sts_endpoint'] as const;

const clientFields = {
  access_key: field.string({ description: 'AWS access key id (empty: the server’s own AWS credentials).' }),
  secret_key: field.string({ description: 'AWS secret access key.', sensitive: true }),
  endpoint: field.string({ description: 'EC2 API endpoint URL.' }),
  iam_endpoint: field.string({ description: 'IAM API endpoint URL.' }),
  sts_endpoint: field.string({ description: 'STS API endpoint URL iam logins are forwarded to.' }),
  sts_region: field.string({ description: 'Region of the STS endpoint.' }),
  iam_server_id_header_value: field.string({
    description: 'Value iam logins must sign in the X-Vault-AWS-IAM-Server-ID header.',
  }),
  allowed_sts_header_values: field.commaStrings({ description: 'Extra headers a login request may carry.' }),
  max_retries: field.int({ description: 'Retries of failed AWS calls (-1: the SDK’s default).' }),
  use_sts_region_from_client: field.bool({
    description: 'Without sts_endpoint: send each login to the STS of the region its signature names.',
  }),
};

/** `config/client`: credentials and endpoints; the secret key is never read back. */
function pathConfigClient(): PathDefinition {
  return definePath({
    pattern: 'config/client',
    fields: clientFields,
    operations: {
      update: {
        summary: 'Configure the AWS client.',
        handler: async ({ storage, data, supplied }) => {
          const current = await awsAuthStore.client(storage);
          const next: AwsClientConfig = { ...current };
          for (const name of [
            'access_key',
            'secret_key',
            'sts_region',
            'iam_server_id_header_value',
            ...URL_FIELDS,
          ] as const)
            if (supplied.has(name)) next[name] = data[name] ?? '';
          for (const name of URL_FIELDS)
            if (next[name] && !/^https?:\/\/\S+$/.test(next[name]))
              throw new InvalidRequestError(`${name} must be an http(s) URL`);
          if (supplied.has('allowed_sts_header_values'))
            next.allowed_sts_header_values = data.allowed_sts_header_values ?? [];
          if (supplied.has('max_retries')) next.max_retries = data.max_retries ?? -1;
          if (supplied.has('use_sts_region_from_client'))
            next.use_sts_region_from_client = data.use_sts_region_from_client ?? false;
          if (next.max_retries < -1) throw new InvalidRequestError('max_retries must be -1 or more');
          if (Boolean(next.access_key) !== Boolean(next.secret_key))
            throw new InvalidRequestError('access_key and secret_key must be given together');
          await awsAuthStore.putClient(storage, next);
          return undefined;
        },
      },
      read: {
        summary: 'Read the client configuration (without the secret key).',
        handler: async ({ storage }) => {
          if (!(await awsAuthStore.hasClient(storage))) throw new NotFoundError('');
          return { data: withoutSensitive(clientFields, await awsAuthStore.client(storage)) };
        },
      },
      delete: {
        summary: 'Forget the client configuration.',
        handler: async ({ storage }) => {
          await awsAuthStore.deleteClient(storage);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Configure how the method calls AWS.',
      description:
        'Without keys the server’s own AWS credentials are used (environment, shared files, instance role). ' +
        'The STS endpoint is where signed iam logins are forwarded.',
    },
  });
}

function metadataOf(name: string, given: string[] | undefined, allowed: string[], current: string[]): string[] {
  if (given === undefined) return current;
  if (given.length === 1 && given[0] === 'default') return DEFAULT_IDENTITY_CONFIG[name as 'iam_metadata'];
  for (const item of given)
    if (!allowed.includes(item))
      throw new InvalidRequestError(
        `${JSON.stringify(given.join(','))} contains an unavailable field, please select from ${JSON.stringify(allowed.join(', '))}`,
      );
  return [...new Set(given)].sort();
}

/** `config/identity`: identity alias names and metadata of logins. */
function pathConfigIdentity(): PathDefinition {
  return definePath({
    pattern: 'config/identity',
    fields: {
      iam_alias: field.string({ description: `Alias name of iam logins: ${IAM_ALIASES.join(', ')}.` }),
      iam_metadata: field.commaStrings({ description: `Metadata of iam logins (or "default"): ${IAM_METADATA}.` }),
      ec2_alias: field.string({ description: `Alias name of ec2 logins: ${EC2_ALIASES.join(', ')}.` }),
      ec2_metadata: field.commaStrings({ description: `Metadata of ec2 logins (or "default"): ${EC2_METADATA}.` }),
    },
    operations: {
      update: {
        summary: 'Configure identity aliases and metadata.',
        handler: async ({ storage, data, supplied }) => {
          const current = await awsAuthStore.identity(storage);
          const next: AwsIdentityConfig = {
            iam_alias: supplied.has('iam_alias') ? data.iam_alias || 'role_id' : current.iam_alias,
            ec2_alias: supplied.has('ec2_alias') ? data.ec2_alias || 'role_id' : current.ec2_alias,
            iam_metadata: metadataOf(
              'iam_metadata',
              supplied.has('iam_metadata') ? (data.iam_metadata ?? []) : undefined,
              IAM_METADATA,
              current.iam_metadata,
            ),
            ec2_metadata: metadataOf(
              'ec2_metadata',
              supplied.has('ec2_metadata') ? (data.ec2_metadata ?? []) : undefined,
              EC2_METADATA,
              current.ec2_metadata,
            ),
          };
          if (!IAM_ALIASES.includes(next.iam_alias))
            throw new InvalidRequestError(
              `iam_alias of ${JSON.stringify(next.iam_alias)} not in set of allowed values`,
            );
          if (!EC2_ALIASES.includes(next.ec2_alias))
            throw new InvalidRequestError(
              `ec2_alias of ${JSON.stringify(next.ec2_alias)} not in set of allowed values`,
            );
          await awsAuthStore.putIdentity(storage, next);
          return undefined;
        },
      },
      read: {
        summary: 'Read the identity configuration.',
        handler: async ({ storage }) => ({ data: { ...(await awsAuthStore.identity(storage)) } }),
      },
    },
    help: {
      synopsis: 'Configure identity integration.',
      description: 'Which name the entity alias of a login gets and which metadata the token and alias carry.',
    },
  });
}

export function pathConfigs(): PathDefinition[] {
  return [pathConfigClient(), pathConfigIdentity()];
}
