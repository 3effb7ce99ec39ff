import { createVerify, X509Certificate } from 'node:crypto';
import { InvalidRequestError, PermissionDeniedError, UpstreamError } from '../../logical/errors.js';
import { boundedText } from '../common/bounded-body.js';

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 1024 * 1024;

/** What a service account's signed login JWT says, once its signature is checked. */
export interface ServiceAccountClaims {
  email: string;
  /** From the account's address: `<name>@<project>.iam.gserviceaccount.com`. */
  projectId: string;
  expSeconds: number;
}

interface Parsed {
  header: { alg?: unknown; kid?: unknown };
  claims: { sub?: unknown; aud?: unknown; exp?: unknown };
  signed: string;
  signature: Buffer;
}

function parse(jwt: string): Parsed {
  const parts = jwt.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
    throw new InvalidRequestError('jwt is not a signed JSON web token');
  try {
    const [header, claims, signature] = parts as [string, string, string];
    return {
      header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')),
      claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')),
      signed: `${header}.${claims}`,
      signature: Buffer.from(signature, 'base64url'),
    };
  } catch {
    throw new InvalidRequestError('jwt is not a signed JSON web token');
  }
}

const refused = (why: string) => new PermissionDeniedError(`invalid JWT: ${why}`);

/** The X.509 certificates Google publishes for a service account's keys, by key id. */
async function publishedKeys(apiEndpoint: string, email: string): Promise<Map<string, string>> {
  const url = `${apiEndpoint.replace(/\/+$/, '')}/service_accounts/v1/metadata/x509/${encodeURIComponent(email)}`;
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (cause) {
    throw new UpstreamError(`fetching the service account's public keys failed: ${(cause as Error).message}`, {
      cause,
    });
  }
  const text = await boundedText(response, MAX_BODY_BYTES, 'Google');
  if (response.status === 404) throw refused('service account not found');
  if (!response.ok) throw new UpstreamError(`Google answered ${response.status} for the service account's public keys`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError("Google's answer for the service account's public keys is not JSON");
  }
  if (typeof body !== 'object' || body === null) throw new UpstreamError('unexpected public key listing');
  return new Map(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * Checks a JWT that a service account signed with one of its keys (IAM `signJwt`, or its key
 * file), as the established `iam` login: RS256, `aud` naming `vault/<role>`, `exp` in the future
 * but no further than `maxExpSeconds`, `sub` the account's email, and a signature by a key Google
 * publishes for that account. Malformed input is a 400; a JWT that fails a check is a 403.
 */
export async function verifyServiceAccountJwt(
  jwt: string,
  check: {
    role: string;
    nowSeconds: number;
    maxExpSeconds: number;
    apiEndpoint: string;
    /** The role's bindings, checked before Google is asked for keys. */
    isBound(email: string, projectId: string): boolean;
  },
): Promise<ServiceAccountClaims> {
  const { header, claims, signed, signature } = parse(jwt);
  if (header.alg !== 'RS256') throw refused('alg must be RS256');
  if (typeof header.kid !== 'string' || header.kid === '') throw refused('no kid in the header');
  const aud = claims.aud;
  const expected = `vault/${check.role}`;
  if (typeof aud !== 'string' || !(aud === expected || aud.endsWith(`/${expected}`)))
    throw refused(`audience must be ${expected}`);
  if (typeof claims.exp !== 'number') throw refused('no exp');
  if (claims.exp <= check.nowSeconds) throw refused('the JWT has expired');
  if (claims.exp - check.nowSeconds > check.maxExpSeconds)
    throw refused(`exp is more than ${check.maxExpSeconds}s in the future (the role's max_jwt_exp)`);
  const email = typeof claims.sub === 'string' ? claims.sub : '';
  const project = /^[^@\s]+@([a-z][a-z0-9-]{4,28}[a-z0-9])\.iam\.gserviceaccount\.com$/.exec(email)?.[1];
  if (!project) throw refused('sub must be the email of a service account (name@project.iam.gserviceaccount.com)');
  if (!check.isBound(email, project))
    throw new PermissionDeniedError(`service account ${email} is not authorized for role`);
  const pem = (await publishedKeys(check.apiEndpoint, email)).get(header.kid);
  if (!pem) throw refused('the key that signed it is not a key of the service account');
  const isValid = createVerify('RSA-SHA256').update(signed).verify(new X509Certificate(pem).publicKey, signature);
  if (!isValid) throw refused('bad signature');
  return { email, projectId: project, expSeconds: claims.exp };
}
