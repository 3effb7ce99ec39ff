import { InvalidRequestError } from '../../logical/errors.js';
import type { JwtRole } from './jwt-store.js';

/** The established leeway defaults, in seconds. */
export const DEFAULT_CLOCK_SKEW_LEEWAY = 60;
export const DEFAULT_EXPIRATION_LEEWAY = 150;
export const DEFAULT_NOT_BEFORE_LEEWAY = 150;

const claimError = (detail: string) => new InvalidRequestError(`error validating claims: ${detail}`);

/**
 * A claim by name, or by JSON pointer (`/groups/0`, RFC 6901) when the name starts with `/`:
 * nested claims are reached the way the established method reaches them.
 */
export function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (!name.startsWith('/')) return Object.hasOwn(claims, name) ? claims[name] : undefined;
  let node: unknown = claims;
  for (const raw of name.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = /^\d+$/.test(key) ? node[Number(key)] : undefined;
    else if (typeof node === 'object' && node !== null && Object.hasOwn(node, key))
      node = (node as Record<string, unknown>)[key];
    else return undefined;
  }
  return node;
}

/** A shell-style glob with `*` only, as `bound_claims_type=glob` matches. */
function globMatches(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
  return re.test(value);
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const leeway = (seconds: number) => (seconds < 0 ? 0 : seconds);

/**
 * The registered claims (`exp`, `nbf`, `iat`, `iss`, `aud`, `sub`)  against the configuration and
 * the role, with the role's leeways; then the role's `bound_claims`. `issuer` is what `iss` must be ('' = any).
 */
export function validateClaims(
  claims: Record<string, unknown>,
  role: JwtRole,
  nowSeconds: number,
  issuer: string,
): void {
  const exp = claims.exp;
  const nbf = claims.nbf;
  const iat = claims.iat;
  if (exp !== undefined && typeof exp !== 'number') throw claimError('exp is not a number');
  if (nbf !== undefined && typeof nbf !== 'number') throw claimError('nbf is not a number');
  if (iat !== undefined && typeof iat !== 'number') throw claimError('iat is not a number');
  const skew = leeway(role.clock_skew_leeway);
  if (typeof exp === 'number' && nowSeconds > exp + skew + leeway(role.expiration_leeway))
    throw claimError('token is expired (exp)');
  if (typeof nbf === 'number' && nowSeconds < nbf - skew - leeway(role.not_before_leeway))
    throw claimError('token not valid yet (nbf)');
  if (typeof iat === 'number' && nowSeconds < iat - skew) throw claimError('token issued in the future (iat)');
  if (exp === undefined && nbf === undefined && iat === undefined)
    throw claimError('no exp, nbf or iat claim: the token never expires');
  if (issuer && claims.iss !== issuer) throw claimError('invalid issuer (iss) claim');
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (role.bound_audiences.length > 0) {
    if (!role.bound_audiences.some((a) => audiences.includes(a))) throw claimError('invalid audience (aud) claim');
  } else if (audiences.length > 0 && role.role_type === 'jwt') {
    throw claimError('audience claim found in JWT but no audiences bound to the role');
  }
  if (role.bound_subject && claims.sub !== role.bound_subject)
    throw claimError('sub claim does not match bound subject');
  checkBoundClaims(claims, role);
}

function checkBoundClaims(claims: Record<string, unknown>, role: JwtRole): void {
  for (const [name, expected] of Object.entries(role.bound_claims)) {
    const actual = claimAt(claims, name);
    if (actual === undefined) throw claimError(`claim "${name}" is missing`);
    const values = (Array.isArray(actual) ? actual : [actual]).map((v) =>
      typeof v === 'string' ? v : JSON.stringify(v),
    );
    const isMatch = values.some((v) =>
      expected.some((e) => (role.bound_claims_type === 'glob' ? globMatches(e, v) : e === v)),
    );
    if (!isMatch) throw claimError(`claim "${name}" does not match any associated bound claim values`);
  }
}

/** The alias name: the `user_claim`'s value (a JSON pointer only with `user_claim_json_pointer`), a string (or a number, as the established method accepts). */
export function userOf(claims: Record<string, unknown>, role: JwtRole): string {
  const value = role.user_claim_json_pointer
    ? claimAt(claims, role.user_claim)
    : Object.hasOwn(claims, role.user_claim)
      ? claims[role.user_claim]
      : undefined;
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  throw new InvalidRequestError(`claim "${role.user_claim}" not found in token`);
}

/** `claim_mappings`: each mapped claim that is a string, number or boolean becomes token metadata. */
export function mappedMetadata(claims: Record<string, unknown>, role: JwtRole): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [claim, key] of Object.entries(role.claim_mappings)) {
    const value = claimAt(claims, claim);
    if (value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      metadata[key] = String(value);
    else throw new InvalidRequestError(`error converting claim '${claim}' to string`);
  }
  return metadata;
}

/** The `groups_claim`'s values (a list of strings, or one string), the names of the external groups. */
export function groupsOf(claims: Record<string, unknown>, role: JwtRole): string[] {
  if (!role.groups_claim) return [];
  const value = claimAt(claims, role.groups_claim);
  if (value === undefined) throw new InvalidRequestError(`"${role.groups_claim}" claim not found in token`);
  const list = Array.isArray(value) ? value : [value];
  const groups: string[] = [];
  for (const g of list) {
    if (typeof g !== 'string')
      throw new InvalidRequestError(`unable to convert groups claim "${role.groups_claim}" to strings`);
    if (g !== '') groups.push(g);
  }
  return groups;
}
