import type { Clock } from '@ward/base';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
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

/** Google's keys are read again after this long, or at once for a key id they lack (a rotation). */
const CERTS_TTL_MS = 5 * 60_000;
/** Endpoints remembered at once (a mount has one; a changed config adds one). */
const MAX_ENDPOINTS = 8;

/** Google's signing keys per API endpoint, kept for a few minutes by the injected clock. */
export class GoogleCerts {
  private readonly cached = new Map<string, { jwks: JSONWebKeySet; atMs: number }>();

  constructor(private readonly clock: Clock) {}

  async keys(apiEndpoint: string, kid: string | undefined): Promise<JSONWebKeySet> {
    const hit = this.cached.get(apiEndpoint);
    const fresh = hit && this.clock.now() - hit.atMs < CERTS_TTL_MS;
    if (hit && fresh && hit.jwks.keys.some((k) => k.kid === kid)) return hit.jwks;
    const jwks = await googleKeys(apiEndpoint);
    if (this.cached.size >= MAX_ENDPOINTS) this.cached.clear();
    this.cached.set(apiEndpoint, { jwks, atMs: this.clock.now() });
    return jwks;
  }
}

/**
 * Checks a JWT Google signed (a Compute Engine instance identity token) with `jose`: RS256 by
 * one of Google's published keys, issuer accounts.google.com, not expired at `now`. Any failed
 * check is a 403; Google's keys out of reach, a 502.
 */
export async function verifyGoogleSignedJwt(
  jwt: string,
  apiEndpoint: string,
  certs: GoogleCerts,
  now: Date,
): Promise<JWTPayload> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(jwt).kid;
  } catch {
    throw new PermissionDeniedError('invalid JWT: its header is not readable');
  }
  const keys = createLocalJWKSet(await certs.keys(apiEndpoint, kid));
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
