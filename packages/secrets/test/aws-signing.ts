import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/** What a client signs with: an access key (and the session token of STS credentials). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface IamLoginOptions {
  role?: string;
  /** Signed as `X-Vault-AWS-IAM-Server-ID`. */
  serverId?: string;
  /** Sent but added after signing (not covered by the signature). */
  unsignedServerId?: string;
  /** More headers added after signing. */
  unsignedHeaders?: Record<string, string>;
  signingDate?: Date;
  body?: string;
}

/**
 * The fields of an iam login as hvac and the established CLI build them: a SigV4-signed
 * `sts:GetCallerIdentity` POST for `stsEndpoint`, its URL, body and headers base64-encoded.
 */
export async function iamLoginFields(
  creds: AwsCredentials,
  stsEndpoint: string,
  o: IamLoginOptions = {},
): Promise<Record<string, string>> {
  const url = new URL(stsEndpoint);
  const body = o.body ?? 'Action=GetCallerIdentity&Version=2011-06-15';
  const headers: Record<string, string> = {
    host: url.host,
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    ...(o.serverId ? { 'x-vault-aws-iam-server-id': o.serverId } : {}),
  };
  const signer = new SignatureV4({ credentials: creds, region: 'us-east-1', service: 'sts', sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: '/',
      query: {},
      headers,
      body,
    },
    { signingDate: o.signingDate ?? new Date() },
  );
  const sent: Record<string, string> = { ...(signed.headers as Record<string, string>) };
  if (o.unsignedServerId) sent['x-vault-aws-iam-server-id'] = o.unsignedServerId;
  Object.assign(sent, o.unsignedHeaders);
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return {
    ...(o.role ? { role: o.role } : {}),
    iam_http_request_method: 'POST',
    iam_request_url: b64(`${url.origin}/`),
    iam_request_body: b64(body),
    iam_request_headers: b64(JSON.stringify(sent)),
  };
}
