import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { awsAuthStore } from './aws-auth-store.js';

/** `config/sts/:account_id` and LIST `config/sts`: roles assumed to look at other accounts. */
export function pathStsRoles(): PathDefinition[] {
  return [
    definePath({
      pattern: 'config/sts/',
      fields: {},
      operations: {
        list: {
          summary: 'List the accounts with a role.',
          handler: async ({ storage }) => ({ data: { keys: await awsAuthStore.stsRoles(storage) } }),
        },
      },
      help: { synopsis: 'List the cross-account roles.', description: 'Account ids.' },
    }),
    definePath({
      pattern: 'config/sts/:account_id',
      fields: {
        account_id: field.path({ description: 'The AWS account id (12 digits).' }),
        sts_role: field.string({ description: 'ARN of the role in that account to assume.' }),
        external_id: field.string({ description: 'External id the role’s trust policy asks for.' }),
      },
      operations: {
        update: {
          summary: 'Set the role of an account.',
          handler: async ({ storage, data }) => {
            if (!/^\d{12}$/.test(data.account_id)) throw new InvalidRequestError('account_id must be 12 digits');
            if (!data.sts_role || !/^arn:[^:]+:iam::\d{12}:role\/\S+$/.test(data.sts_role))
              throw new InvalidRequestError('sts_role must be the ARN of an IAM role');
            await awsAuthStore.putStsRole(storage, data.account_id, {
              sts_role: data.sts_role,
              external_id: data.external_id ?? '',
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read the role of an account.',
          handler: async ({ storage, data }) => {
            const entry = await awsAuthStore.stsRole(storage, data.account_id);
            if (!entry) throw new NotFoundError('');
            return { data: { ...entry } };
          },
        },
        delete: {
          summary: 'Forget the role of an account.',
          handler: async ({ storage, data }) => {
            await awsAuthStore.deleteStsRole(storage, data.account_id);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Cross-account access.',
        description:
          'Instances (ec2 and inferred logins) and principals (resolve_aws_unique_ids) of this account are looked ' +
          'up with the credentials of this role, assumed with config/client’s.',
      },
    }),
  ];
}
