import { IAMClient } from '@aws-sdk/client-iam';
import { STSClient } from '@aws-sdk/client-sts';
import { UpstreamError } from '../../logical/errors.js';
import type { RootConfig } from './aws-engine-store.js';

const DEFAULT_REGION = 'us-east-1';

function common(config: RootConfig | undefined, region: string | undefined, endpoint: string | undefined) {
  return {
    region: region || config?.region || DEFAULT_REGION,
    ...(endpoint ? { endpoint } : {}),
    ...(config?.access_key
      ? { credentials: { accessKeyId: config.access_key, secretAccessKey: config.secret_key } }
      : {}),
    ...(config && config.max_retries >= 0 ? { maxAttempts: config.max_retries + 1 } : {}),
  };
}

/** An IAM client with the root credentials (or, without them, the server's own AWS credentials). */
export const iamClientOf = (config: RootConfig | undefined) =>
  new IAMClient(common(config, config?.region, config?.iam_endpoint));

export const stsClientOf = (config: RootConfig | undefined) =>
  new STSClient(common(config, config?.sts_region, config?.sts_endpoint));

/** An AWS call that failed: 502 with AWS's words. */
export function upstream(what: string, err: unknown): UpstreamError {
  return new UpstreamError(`${what}: ${(err as Error).message}`, { cause: err });
}

/** Whether AWS answered that the entity is not there (a retried deletion). */
export const isNoSuchEntity = (err: unknown) =>
  ['NoSuchEntityException', 'NoSuchEntity'].includes((err as { name?: string }).name ?? '');
