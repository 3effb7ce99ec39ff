import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { UpstreamError } from '../../logical/errors.js';
import type { AwsClientConfig } from './aws-auth-store.js';

const DEFAULT_REGION = 'us-east-1';

function common(config: AwsClientConfig, region: string, endpoint: string) {
  return {
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(config.access_key
      ? {
          credentials: {
            accessKeyId: config.access_key,
            secretAccessKey: config.secret_key,
            ...(config.session_token ? { sessionToken: config.session_token } : {}),
          },
        }
      : {}),
    ...(config.max_retries >= 0 ? { maxAttempts: config.max_retries + 1 } : {}),
  };
}

/** The IAM client the method resolves principals with (`resolve_aws_unique_ids`). */
export const iamClientOf = (config: AwsClientConfig) =>
  new IAMClient(common(config, config.sts_region || DEFAULT_REGION, config.iam_endpoint));

/** The EC2 client of a region (instance lookups of ec2 and inferred logins). */
export const ec2ClientOf = (config: AwsClientConfig, region: string) =>
  new EC2Client(common(config, region || DEFAULT_REGION, config.endpoint));

/** Where signed iam logins are forwarded; `signedRegion`: the region of the request's credential scope. */
export function stsUrlOf(config: AwsClientConfig, signedRegion = ''): string {
  if (config.sts_endpoint) return config.sts_endpoint;
  const region =
    config.use_sts_region_from_client && /^[a-z0-9-]+$/.test(signedRegion) ? signedRegion : config.sts_region;
  return region ? `https://sts.${region}.amazonaws.com/` : 'https://sts.amazonaws.com/';
}

/** An AWS call that failed: 502 with AWS's words. */
export function upstream(what: string, err: unknown): UpstreamError {
  return new UpstreamError(`${what}: ${(err as Error).message}`, { cause: err });
}
