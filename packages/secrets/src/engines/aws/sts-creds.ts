import {
  AssumeRoleCommand,
  type Credentials,
  GetFederationTokenCommand,
  GetSessionTokenCommand,
} from '@aws-sdk/client-sts';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { stsClientOf, upstream } from './aws-clients.js';
import type { AwsEngineRole, CredentialType, RootConfig } from './aws-engine-store.js';
import { withGroupPolicies } from './group-policies.js';

export interface StsRequest {
  type: Exclude<CredentialType, 'iam_user'>;
  name: string;
  ttlSeconds: number;
  roleArn: string;
  mfaCode: string;
}

export interface StsCredentials {
  access_key: string;
  secret_key: string;
  session_token: string;
  arn: string;
  expiration: string;
}

/** Asks STS for credentials of the role: AssumeRole, GetFederationToken or GetSessionToken. 502 on STS failures. */
export async function stsCredentials(config: RootConfig | undefined, role: AwsEngineRole, r: StsRequest) {
  const merged = r.type === 'session_token' ? undefined : await withGroupPolicies(config, role);
  const policy = merged?.policyDocument ? { Policy: merged.policyDocument } : {};
  const policyArns = merged?.policyArns.length ? { PolicyArns: merged.policyArns.map((arn) => ({ arn })) } : {};
  const client = stsClientOf(config);
  try {
    let creds: Credentials | undefined;
    let arn = '';
    if (r.type === 'assumed_role') {
      const out = await client.send(
        new AssumeRoleCommand({
          RoleArn: r.roleArn,
          RoleSessionName: r.name,
          DurationSeconds: r.ttlSeconds,
          ...policy,
          ...policyArns,
          ...(role.external_id ? { ExternalId: role.external_id } : {}),
          ...(Object.keys(role.session_tags).length > 0
            ? { Tags: Object.entries(role.session_tags).map(([Key, Value]) => ({ Key, Value })) }
            : {}),
        }),
      );
      creds = out.Credentials;
      arn = out.AssumedRoleUser?.Arn ?? '';
    } else if (r.type === 'federation_token') {
      if (!policy.Policy && !policyArns.PolicyArns)
        throw new InvalidRequestError('a federation_token role needs policy_document or policy_arns');
      const out = await client.send(
        new GetFederationTokenCommand({ Name: r.name, DurationSeconds: r.ttlSeconds, ...policy, ...policyArns }),
      );
      creds = out.Credentials;
      arn = out.FederatedUser?.Arn ?? '';
    } else {
      const out = await client.send(
        new GetSessionTokenCommand({
          DurationSeconds: r.ttlSeconds,
          ...(role.mfa_serial_number ? { SerialNumber: role.mfa_serial_number, TokenCode: r.mfaCode } : {}),
        }),
      );
      creds = out.Credentials;
    }
    if (!creds?.AccessKeyId || !creds.SecretAccessKey) throw new UpstreamError('STS answered no credentials');
    return {
      access_key: creds.AccessKeyId,
      secret_key: creds.SecretAccessKey,
      session_token: creds.SessionToken ?? '',
      arn,
      expiration: creds.Expiration?.toISOString() ?? '',
    } satisfies StsCredentials;
  } catch (err) {
    if (err instanceof InvalidRequestError || err instanceof UpstreamError) throw err;
    throw upstream(`error calling STS for ${r.type} credentials`, err);
  } finally {
    client.destroy();
  }
}
