import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { Clock } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import { type AwsClientConfig, awsAuthStore } from './aws-auth-store.js';
import { upstream } from './aws-clients.js';

const SESSION_SECONDS = 900;

/**
 * The client config to call AWS about `accountId` with: the method's own, or, when
 * `config/sts/<account>` names a role, that role's credentials (assumed with the method's own
 * keys, through the configured STS endpoint). 502 when the role cannot be assumed.
 */
export async function configForAccount(
  storage: Storage,
  config: AwsClientConfig,
  accountId: string,
  clock: Clock,
): Promise<AwsClientConfig> {
  const entry = accountId ? await awsAuthStore.stsRole(storage, accountId) : undefined;
  if (!entry) return config;
  const client = new STSClient({
    region: config.sts_region || 'us-east-1',
    ...(config.sts_endpoint ? { endpoint: config.sts_endpoint } : {}),
    ...(config.access_key
      ? { credentials: { accessKeyId: config.access_key, secretAccessKey: config.secret_key } }
      : {}),
    ...(config.max_retries >= 0 ? { maxAttempts: config.max_retries + 1 } : {}),
  });
  try {
    const out = await client.send(
      new AssumeRoleCommand({
        RoleArn: entry.sts_role,
        RoleSessionName: `ward-${Math.floor(clock.now() / 1000)}`,
        DurationSeconds: SESSION_SECONDS,
        ...(entry.external_id ? { ExternalId: entry.external_id } : {}),
      }),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error('no credentials answered');
    return { ...config, access_key: c.AccessKeyId, secret_key: c.SecretAccessKey, session_token: c.SessionToken ?? '' };
  } catch (err) {
    throw upstream(`unable to assume ${entry.sts_role} for account ${accountId}`, err);
  } finally {
    client.destroy();
  }
}
