import type { Clock, Random } from '@ward/base';
import { definePath, field, type PathDefinition, type SecretType } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type AwsEngineRole, awsEngineStore, type CredentialType } from './aws-engine-store.js';
import { createIamUser, deleteIamUser } from './iam-user.js';
import { stsCredentials } from './sts-creds.js';
import type { UsernameRenderer } from './usernames.js';
import { usersWal } from './users-wal.js';

/** The secret type of iam_user leases. */
export const ACCESS_KEYS = 'access_keys';
/** The secret type of STS leases: not renewable, they end by themselves. */
export const STS_KEYS = 'sts_access_keys';

/** Kept with the lease. */
interface LeaseInternal {
  username: string;
  policy: string;
  is_sts: boolean;
  issued_ms: number;
  /** The write-ahead record of an iam_user, dropped once the lease exists. */
  wal_id?: string;
}

const DEFAULT_STS_TTL = 3600;

export interface CredsDeps {
  clock: Clock;
  random: Random;
  names: UsernameRenderer;
  /** Names this backend instance in write-ahead records. */
  instanceId: string;
}

function credentialTypeOf(role: AwsEngineRole, endpoint: 'creds' | 'sts', asked: string | undefined): CredentialType {
  const types = role.credential_types;
  if (asked) {
    if (!types.includes(asked as CredentialType))
      throw new InvalidRequestError(
        `requested credential_type ${JSON.stringify(asked)} not in allowed credential types`,
      );
    return asked as CredentialType;
  }
  const usable = endpoint === 'sts' ? types.filter((t) => t !== 'iam_user') : types;
  if (usable.length === 0) throw new InvalidRequestError("Can't generate STS credentials for a non-STS role");
  if (usable.length > 1) throw new InvalidRequestError('did not supply credential_type and more than one allowed');
  return usable[0] as CredentialType;
}

function credsPath(pattern: string, endpoint: 'creds' | 'sts', d: CredsDeps): PathDefinition {
  const fields = {
    name: field.path({ description: 'Name of the role.', caseInsensitive: true }),
    role_arn: field.string({ description: 'assumed_role: the role to assume (one of the role’s role_arns).' }),
    role_session_name: field.string({ description: 'assumed_role: the session name (default: generated).' }),
    ttl: field.durationSeconds({
      description: 'STS: lifetime of the credentials (default: the role’s default_sts_ttl).',
    }),
    credential_type: field.string({ description: 'Which of the role’s credential types to issue.' }),
    mfa_code: field.string({ description: 'session_token: the current code of the role’s MFA device.' }),
  };
  const handler = async ({
    storage,
    data,
    req,
  }: {
    storage: Storage;
    data: {
      name: string;
      role_arn?: string;
      role_session_name?: string;
      ttl?: number;
      credential_type?: string;
      mfa_code?: string;
    };
    req: { caller?: { displayName?: string } };
  }) => {
    const role = await awsEngineStore.role(storage, data.name);
    if (!role) throw new NotFoundError(`Role "${data.name}" not found`);
    const type = credentialTypeOf(role, endpoint, data.credential_type);
    const config = await awsEngineStore.root(storage);
    const displayName = req.caller?.displayName ?? '';
    const now = d.clock.now();
    if (type === 'iam_user') {
      const username = d.names.render(config?.username_template ?? '', 'IAM', displayName, data.name);
      const walId = Buffer.from(d.random.bytes(16)).toString('hex');
      await usersWal.put(storage, walId, { instance: d.instanceId, created_ms: now, username });
      let key: Awaited<ReturnType<typeof createIamUser>>;
      try {
        key = await createIamUser(config, role, data.name, username);
      } catch (err) {
        // createIamUser deleted what it made; a record left by a failed deletion is the sweep's.
        if ((err as { isRolledBack?: boolean }).isRolledBack) await usersWal.delete(storage, walId);
        throw err;
      }
      const lease = await awsEngineStore.lease(storage);
      const internal: LeaseInternal = { username, policy: data.name, is_sts: false, issued_ms: now, wal_id: walId };
      return {
        secret: {
          type: ACCESS_KEYS,
          data: {
            access_key: key.accessKeyId,
            secret_key: key.secretAccessKey,
            session_token: null,
            security_token: null,
          },
          internal: internal as unknown as Record<string, unknown>,
          ...(lease ? { ttlSeconds: lease.lease } : {}),
        },
      };
    }
    let ttl = data.ttl || role.default_sts_ttl || DEFAULT_STS_TTL;
    if (role.max_sts_ttl) ttl = Math.min(ttl, role.max_sts_ttl);
    let roleArn = '';
    if (type === 'assumed_role') {
      roleArn = data.role_arn || (role.role_arns.length === 1 ? (role.role_arns[0] ?? '') : '');
      if (!roleArn)
        throw new InvalidRequestError(
          `did not supply a role_arn parameter and unable to determine one for role ${data.name}`,
        );
      if (!role.role_arns.includes(roleArn))
        throw new InvalidRequestError(
          `role_arn ${JSON.stringify(roleArn)} not in allowed role arns for role ${data.name}`,
        );
    }
    const name =
      type === 'assumed_role' && data.role_session_name
        ? data.role_session_name.slice(0, 64)
        : d.names.render(config?.username_template ?? '', 'STS', displayName, data.name);
    const creds = await stsCredentials(config, role, {
      type,
      name,
      ttlSeconds: ttl,
      roleArn,
      mfaCode: data.mfa_code ?? '',
    });
    const internal: LeaseInternal = { username: name, policy: data.name, is_sts: true, issued_ms: now };
    return {
      secret: {
        type: STS_KEYS,
        data: { ...creds, security_token: creds.session_token, ttl },
        internal: internal as unknown as Record<string, unknown>,
        ttlSeconds: ttl,
      },
    };
  };
  return definePath({
    pattern,
    fields,
    operations: {
      read: { summary: 'Issue credentials of a role.', handler },
      update: { summary: 'Issue credentials of a role.', handler },
    },
    help: {
      synopsis: endpoint === 'sts' ? 'Issue STS credentials of a role.' : 'Issue credentials of a role.',
      description:
        'iam_user: a new IAM user with an access key, deleted when the lease ends; STS types: temporary credentials ' +
        '(502 when AWS fails).',
    },
  });
}

/** `creds/:name` and `sts/:name`. */
export function pathCreds(d: CredsDeps): PathDefinition[] {
  return [credsPath('creds/:name', 'creds', d), credsPath('sts/:name', 'sts', d)];
}

/** The lease of STS credentials: AWS ends them at their expiry, nothing is revoked upstream. */
export const stsKeysSecret: SecretType = { type: STS_KEYS, revoke: async () => undefined };

/**
 * The lease of credentials: revoking an iam_user one deletes the user (and its keys, policies
 * and groups); an STS one ends by itself. Renewing an iam_user one follows `config/lease`.
 */
export function accessKeysSecret(d: CredsDeps): SecretType {
  return {
    type: ACCESS_KEYS,
    async leased({ storage, internal }) {
      const walId = (internal as unknown as LeaseInternal).wal_id;
      if (walId) await usersWal.delete(storage, walId);
    },
    async revoke({ storage, internal }) {
      const lease = internal as unknown as LeaseInternal;
      if (lease.is_sts) return;
      await deleteIamUser(await awsEngineStore.root(storage), lease.username);
      if (lease.wal_id) await usersWal.delete(storage, lease.wal_id);
    },
    async renew({ storage, internal, incrementSeconds }) {
      const lease = internal as unknown as LeaseInternal;
      if (lease.is_sts) throw new InvalidRequestError('STS credentials cannot be renewed');
      const config = await awsEngineStore.lease(storage);
      if (!config) return incrementSeconds ? { ttlSeconds: incrementSeconds } : undefined;
      const left = Math.floor((lease.issued_ms + config.lease_max * 1000 - d.clock.now()) / 1000);
      if (left <= 0) throw new InvalidRequestError('lease has reached lease_max');
      return { ttlSeconds: Math.min(incrementSeconds || config.lease, left) };
    },
  };
}
