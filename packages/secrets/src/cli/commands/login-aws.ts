import { Sha256 } from '@aws-crypto/sha256-js';
import { STSClient } from '@aws-sdk/client-sts';
import { SignatureV4 } from '@smithy/signature-v4';
import { CliError } from '../command.js';
import { UsageError } from '../flags.js';

/** What the signature is made with: an access key, and the session token of temporary credentials. */
interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The body of the request STS answers with the caller's identity. */
const GET_CALLER_IDENTITY = 'Action=GetCallerIdentity&Version=2011-06-15';
/** The established CLI signs for the global endpoint; AWS_ENDPOINT_URL_STS overrides it as in every AWS SDK. */
const GLOBAL_STS = 'https://sts.amazonaws.com/';
const NO_CREDENTIALS =
  'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), ' +
  'use a shared profile (~/.aws/credentials, AWS_PROFILE), or give aws_access_key_id=… aws_secret_access_key=…';

/** The parameters the helper reads itself; everything else (`role`, …) goes to the server as given. */
const HELPER_PARAMS = new Set([
  'mount',
  'region',
  'header_value',
  'aws_access_key_id',
  'aws_secret_access_key',
  'aws_security_token',
]);

/** Explicit keys first (as established), else the SDK's default chain: environment, shared profile, SSO, IMDS… */
async function credentialsFor(params: Record<string, string>, region: string): Promise<AwsCredentials> {
  const accessKeyId = params.aws_access_key_id;
  if (accessKeyId) {
    const secretAccessKey = params.aws_secret_access_key;
    if (!secretAccessKey) throw new UsageError('aws_access_key_id=… needs aws_secret_access_key=…');
    return {
      accessKeyId,
      secretAccessKey,
      ...(params.aws_security_token ? { sessionToken: params.aws_security_token } : {}),
    };
  }
  const sts = new STSClient({ region });
  try {
    const found = await sts.config.credentials();
    return {
      accessKeyId: found.accessKeyId,
      secretAccessKey: found.secretAccessKey,
      ...(found.sessionToken ? { sessionToken: found.sessionToken } : {}),
    };
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    throw new CliError(`${NO_CREDENTIALS} (${reason})`, 2);
  } finally {
    sts.destroy();
  }
}

/** `region=` as established: empty means us-east-1, `auto` the region the environment names. */
function regionFor(params: Record<string, string>, env: NodeJS.ProcessEnv): string {
  const region = params.region ?? '';
  if (region === '') return 'us-east-1';
  if (region === 'auto') return env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw new UsageError(`region=${region} is not an AWS region`);
  return region;
}

function stsEndpoint(env: NodeJS.ProcessEnv): URL {
  const text = env.AWS_ENDPOINT_URL_STS || env.AWS_ENDPOINT_URL || GLOBAL_STS;
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  } catch {
    // refused below
  }
  throw new UsageError(`the STS endpoint ${text} (AWS_ENDPOINT_URL_STS) is not an http(s) URL`);
}

/**
 * `ward login -method=aws`: signs an `sts:GetCallerIdentity` POST with the caller's AWS
 * credentials (SigV4, `X-Vault-AWS-IAM-Server-ID` signed when `header_value=` is given) and
 * returns the iam login fields: method, URL, body and headers, base64 as established, plus
 * the caller's other parameters (`role=…`).
 */
export async function awsLoginParams(
  params: Record<string, string>,
  env: NodeJS.ProcessEnv,
  now: () => Date,
): Promise<Record<string, string>> {
  const region = regionFor(params, env);
  const url = stsEndpoint(env);
  const credentials = await credentialsFor(params, region);
  const headers: Record<string, string> = {
    host: url.host,
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    ...(params.header_value ? { 'x-vault-aws-iam-server-id': params.header_value } : {}),
  };
  const signer = new SignatureV4({ credentials, region, service: 'sts', sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: {},
      headers,
      body: GET_CALLER_IDENTITY,
    },
    { signingDate: now() },
  );
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const passed = Object.entries(params).filter(([k]) => !HELPER_PARAMS.has(k));
  return {
    ...Object.fromEntries(passed),
    iam_http_request_method: 'POST',
    iam_request_url: b64(url.href),
    iam_request_body: b64(GET_CALLER_IDENTITY),
    iam_request_headers: b64(JSON.stringify(signed.headers)),
  };
}
