import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/** Keys the fake knows: access key id → secret (and the session token of STS credentials). */
export interface KnownKey {
  secretAccessKey: string;
  sessionToken?: string;
}

export class SigV4Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a verified signature says: who signed, for which service and region. */
export interface Signer {
  accessKeyId: string;
  service: string;
  region: string;
}

const MAX_SKEW_MS = 15 * 60 * 1000;

/**
 * Verifies a request's SigV4 `Authorization` as AWS does: the key must be known (and its
 * session token sent), the date within 15 minutes of `nowMs`, and the signature the one the
 * secret key gives over exactly the headers it names. Throws `SigV4Refusal` with AWS's codes.
 */
export async function verifySigV4(
  req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string },
  keys: ReadonlyMap<string, KnownKey>,
  nowMs: number,
): Promise<Signer> {
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(',') : (v ?? '');
  };
  const auth = header('authorization');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) throw new SigV4Refusal('IncompleteSignature', 'Authorization header requires a SigV4 signature');
  const [, accessKeyId = '', , region = '', service = '', signedList = '', signature = ''] = m;
  const key = keys.get(accessKeyId);
  if (!key) throw new SigV4Refusal('InvalidClientTokenId', 'The security token included in the request is invalid.');
  if (key.sessionToken && header('x-amz-security-token') !== key.sessionToken)
    throw new SigV4Refusal('InvalidClientTokenId', 'The security token included in the request is invalid.');
  const amzDate = header('x-amz-date');
  const dm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!dm) throw new SigV4Refusal('IncompleteSignature', 'missing X-Amz-Date');
  const signedAt = Date.UTC(+dm[1]!, +dm[2]! - 1, +dm[3]!, +dm[4]!, +dm[5]!, +dm[6]!);
  if (Math.abs(nowMs - signedAt) > MAX_SKEW_MS)
    throw new SigV4Refusal(
      'SignatureDoesNotMatch',
      `Signature expired: ${amzDate} is now earlier than the allowed window`,
    );
  const contentHash = header('x-amz-content-sha256');
  if (contentHash && contentHash !== createHash('sha256').update(req.body).digest('hex'))
    throw new SigV4Refusal(
      'SignatureDoesNotMatch',
      'The provided x-amz-content-sha256 header does not match the body.',
    );
  const signed = signedList.split(';');
  if (!signed.includes('host')) throw new SigV4Refusal('SignatureDoesNotMatch', 'host must be signed');
  const headers: Record<string, string> = {};
  for (const name of signed) if (name !== 'x-amz-date' && name !== 'x-amz-security-token') headers[name] = header(name);
  const url = new URL(req.url, `http://${header('host')}`);
  const signer = new SignatureV4({
    // The SDK signs a payload hash header by default; clients that sign none (hvac) must be re-signed without it.
    applyChecksum: signed.includes('x-amz-content-sha256'),
    credentials: { accessKeyId, secretAccessKey: key.secretAccessKey, sessionToken: key.sessionToken },
    region,
    service,
    sha256: Sha256,
  });
  const resigned = await signer.sign(
    {
      method: req.method,
      protocol: 'http:',
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: req.body,
    },
    { signingDate: new Date(signedAt), signableHeaders: new Set(signed) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(resigned.headers.authorization ?? ''))?.[1];
  if (expected !== signature)
    throw new SigV4Refusal(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  return { accessKeyId, service, region };
}
