import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { PermissionDeniedError, UpstreamError } from '../../logical/errors.js';
import { boundedText } from '../common/bounded-body.js';

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 256 * 1024;
const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** Google's OAuth 2.0 signing keys, `<api>/oauth2/v3/certs` (a JWKS). */
async function googleKeys(apiEndpoint: string): Promise<JSONWebKeySet> {
  const url = `${apiEndpoint.replace(/\/+$/, '')}/oauth2/v3/certs`;
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (cause) {
    throw new UpstreamError(`fetching Google's signing keys failed: ${(cause as Error).message}`, { cause });
  }
  const text = await boundedText(response, MAX_BODY_BYTES, 'Google');
  if (!response.ok) throw new UpstreamError(`Google answered ${response.status} for its signing keys`);
  try {
    const body = JSON.parse(text) as JSONWebKeySet;
    if (!Array.isArray(body.keys)) throw new Error('no keys');
    return body;
  } catch {
    throw new UpstreamError("Google's signing keys are not a JWKS");
  }
}

/**
 * Checks a JWT Google signed (a Compute Engine instance identity token) with `jose`: RS256 by
 * one of Google's published keys, issuer accounts.google.com, not expired at `now`. Any failed
 * check is a 403; Google's keys out of reach, a 502.
 */
export async function verifyGoogleSignedJwt(jwt: string, apiEndpoint: string, now: Date): Promise<JWTPayload> {
  const keys = createLocalJWKSet(await googleKeys(apiEndpoint));
  try {
    const { payload } = await jwtVerify(jwt, keys, { algorithms: ['RS256'], issuer: GOOGLE_ISSUERS, currentDate: now });
    return payload;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new PermissionDeniedError('invalid JWT: the JWT has expired');
    if (err instanceof joseErrors.JOSEError)
      throw new PermissionDeniedError(`invalid JWT: not signed by Google (${err.code})`);
    throw err;
  }
}
