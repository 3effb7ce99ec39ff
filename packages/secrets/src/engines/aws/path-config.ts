import { CreateAccessKeyCommand, DeleteAccessKeyCommand, GetUserCommand } from '@aws-sdk/client-iam';
import { formatDurationSeconds } from '@ward/base';
import { definePath, field, KeyedMutex, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { iamClientOf, upstream } from './aws-clients.js';
import { awsEngineStore, type RootConfig } from './aws-engine-store.js';

const ROOT_FIELDS = ['access_key', 'secret_key', 'region', 'iam_endpoint', 'sts_endpoint', 'sts_region'] as const;

/** `config/root`: the engine's own IAM credentials and endpoints (the secret key is never read back). */
function pathConfigRoot(locks: KeyedMutex): PathDefinition {
  return definePath({
    pattern: 'config/root',
    fields: {
      access_key: field.string({ description: 'Access key id (empty: the server’s own AWS credentials).' }),
      secret_key: field.string({ description: 'Secret access key.' }),
      region: field.string({ description: 'Region (default us-east-1).' }),
      iam_endpoint: field.string({ description: 'IAM endpoint URL.' }),
      sts_endpoint: field.string({ description: 'STS endpoint URL.' }),
      sts_region: field.string({ description: 'Region of the STS endpoint (default: region).' }),
      max_retries: field.int({ description: 'Retries of failed AWS calls (-1: the SDK’s default).' }),
      username_template: field.string({ description: 'Template of iam_user user names.' }),
    },
    operations: {
      update: {
        summary: 'Configure the root credentials.',
        handler: async ({ storage, data, supplied }) =>
          locks.run('root', async () => {
            const current = await awsEngineStore.root(storage);
            const next: RootConfig = {
              access_key: '',
              secret_key: '',
              region: '',
              iam_endpoint: '',
              sts_endpoint: '',
              sts_region: '',
              max_retries: -1,
              username_template: '',
              ...current,
            };
            for (const name of ROOT_FIELDS) if (supplied.has(name)) next[name] = data[name] ?? '';
            if (supplied.has('max_retries')) next.max_retries = data.max_retries ?? -1;
            if (supplied.has('username_template')) next.username_template = data.username_template ?? '';
            if (next.max_retries < -1) throw new InvalidRequestError('max_retries must be -1 or more');
            if (Boolean(next.access_key) !== Boolean(next.secret_key))
              throw new InvalidRequestError('access_key and secret_key must be given together');
            await awsEngineStore.putRoot(storage, next);
            return undefined;
          }),
      },
      read: {
        summary: 'Read the root configuration (without the secret key).',
        handler: async ({ storage }) => {
          const config = await awsEngineStore.root(storage);
          if (!config) throw new NotFoundError('');
          const { secret_key: _secret, ...shown } = config;
          return { data: shown };
        },
      },
    },
    help: {
      synopsis: 'Configure the root credentials.',
      description: 'The credentials need the IAM and STS permissions of the roles’ credential types.',
    },
  });
}

/**
 * `config/rotate-root`: a new access key for the root credentials' user, stored before the
 * old one is deleted (a failure between the two leaves both valid, never neither).
 */
function pathRotateRoot(locks: KeyedMutex): PathDefinition {
  return definePath({
    pattern: 'config/rotate-root',
    fields: {},
    operations: {
      update: {
        summary: 'Rotate the root access key.',
        handler: async ({ storage }) =>
          locks.run('root', async () => {
            const config = await awsEngineStore.root(storage);
            if (!config?.access_key)
              throw new InvalidRequestError(
                'cannot call config/rotate-root when either access_key or secret_key is empty',
              );
            const client = iamClientOf(config);
            try {
              const user = await client
                .send(new GetUserCommand({}))
                .catch((err) => Promise.reject(upstream('error calling GetUser', err)));
              const userName = user.User?.UserName;
              if (!userName) throw upstream('error calling GetUser', new Error('no user name answered'));
              const created = await client
                .send(new CreateAccessKeyCommand({ UserName: userName }))
                .catch((err) => Promise.reject(upstream('error calling CreateAccessKey', err)));
              const key = created.AccessKey;
              if (!key?.AccessKeyId || !key.SecretAccessKey)
                throw upstream('error calling CreateAccessKey', new Error('no key answered'));
              await awsEngineStore.putRoot(storage, {
                ...config,
                access_key: key.AccessKeyId,
                secret_key: key.SecretAccessKey,
              });
              await client
                .send(new DeleteAccessKeyCommand({ UserName: userName, AccessKeyId: config.access_key }))
                .catch((err) => Promise.reject(upstream('error deleting old access key', err)));
              return { data: { access_key: key.AccessKeyId } };
            } finally {
              client.destroy();
            }
          }),
      },
    },
    help: {
      synopsis: 'Rotate the root access key.',
      description: 'Only the engine knows the new secret key afterwards.',
    },
  });
}

/** `config/lease`: lease and maximum of iam_user credentials. */
function pathConfigLease(): PathDefinition {
  return definePath({
    pattern: 'config/lease',
    fields: {
      lease: field.durationSeconds({ description: 'Default lease of iam_user credentials.' }),
      lease_max: field.durationSeconds({ description: 'Maximum lease of iam_user credentials.' }),
    },
    operations: {
      update: {
        summary: 'Configure the lease.',
        handler: async ({ storage, data }) => {
          if (!data.lease) throw new InvalidRequestError('"lease" is required');
          if (!data.lease_max) throw new InvalidRequestError('"lease_max" is required');
          await awsEngineStore.putLease(storage, { lease: data.lease, lease_max: data.lease_max });
          return undefined;
        },
      },
      read: {
        summary: 'Read the lease configuration.',
        handler: async ({ storage }) => {
          const lease = await awsEngineStore.lease(storage);
          if (!lease) throw new NotFoundError('');
          return {
            data: { lease: formatDurationSeconds(lease.lease), lease_max: formatDurationSeconds(lease.lease_max) },
          };
        },
      },
    },
    help: { synopsis: 'Configure the lease of iam_user credentials.', description: 'Go durations when read.' },
  });
}

export function pathConfigs(): PathDefinition[] {
  const locks = new KeyedMutex();
  return [pathConfigRoot(locks), pathRotateRoot(locks), pathConfigLease()];
}
