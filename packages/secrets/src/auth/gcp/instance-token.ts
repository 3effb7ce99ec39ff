import type { Clock } from '@ward/base';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { type GoogleCerts, verifyGoogleSignedJwt } from './google-certs.js';

/** How far ahead a login JWT may expire (instance identity tokens live an hour), with a minute's slack. */
const MAX_EXP_AHEAD_S = 3600 + 60;

/** The `google.compute_engine` claims of a `format=full` instance identity token. */
export interface ComputeEngineClaims {
  project_id: string;
  project_number: number;
  zone: string;
  instance_id: string;
  instance_name: string;
  instance_creation_timestamp: number;
}

function computeEngineClaims(payload: Record<string, unknown>): ComputeEngineClaims {
  const google = payload.google as { compute_engine?: Record<string, unknown> } | undefined;
  const ce = google?.compute_engine;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? Number.NaN));
  const claims = ce && {
    project_id: str(ce.project_id),
    project_number: num(ce.project_number),
    zone: str(ce.zone),
    instance_id: str(ce.instance_id),
    instance_name: str(ce.instance_name),
    instance_creation_timestamp: num(ce.instance_creation_timestamp),
  };
  if (!claims?.project_id || !claims.zone || !claims.instance_id || !claims.instance_name)
    throw new PermissionDeniedError(
      'invalid JWT: expected google.compute_engine claims (an instance identity token with format=full)',
    );
  return claims as ComputeEngineClaims;
}

/** `vault/<role>` as the audience, or its end (`http://vault/<role>`), as the established method checks. */
function checkAudience(aud: unknown, role: string): void {
  const expected = `vault/${role}`;
  const auds = Array.isArray(aud) ? aud : [aud];
  if (!auds.some((a) => typeof a === 'string' && (a === expected || a.endsWith(`/${expected}`))))
    throw new PermissionDeniedError(`invalid JWT: at least one of the JWT claim 'aud' must end in "${expected}"`);
}

/**
 * Checks an instance identity token: signed by Google, `aud` naming `vault/<role>`, not
 * expired nor expiring more than an hour ahead, with `google.compute_engine` claims. The
 * service account is its `email` (else `sub`, the account's unique id).
 */
export async function verifyInstanceToken(
  jwt: string,
  roleName: string,
  apiEndpoint: string,
  certs: GoogleCerts,
  clock: Clock,
): Promise<{ claims: ComputeEngineClaims; emailOrId: string }> {
  if (jwt.split('.').length !== 3) throw new InvalidRequestError('jwt is not a signed JSON web token');
  const nowS = Math.floor(clock.now() / 1000);
  const payload = await verifyGoogleSignedJwt(jwt, apiEndpoint, certs, new Date(clock.now()));
  checkAudience(payload.aud, roleName);
  if (typeof payload.exp !== 'number') throw new PermissionDeniedError('invalid JWT: no exp');
  if (payload.exp - nowS > MAX_EXP_AHEAD_S) throw new PermissionDeniedError('invalid JWT: exp is too far ahead');
  const claims = computeEngineClaims(payload as Record<string, unknown>);
  return { claims, emailOrId: typeof payload.email === 'string' ? payload.email : (payload.sub ?? '') };
}

/** Whether a JWT carries instance identity claims (read unverified, only to pick the check to run). */
export function looksLikeInstanceToken(jwt: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload?.google?.compute_engine === 'object';
  } catch {
    return false;
  }
}
