import { equivalentPolicies, field, parseCidrs, sanitizePolicies } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LoginGrant, LoginRenewal } from '../../logical/response.js';

/**
 * The token settings every established auth method stores per role or user (`tokenutil`),
 * with the legacy names (`policies`, `ttl`, `max_ttl`, `bound_cidrs`) kept in their own
 * slots only so a read shows them back as written. Durations in seconds; 0 = not set.
 */
export interface TokenParams {
  token_ttl: number;
  token_max_ttl: number;
  token_explicit_max_ttl: number;
  token_period: number;
  token_policies: string[];
  /** Normalised (`10.0.0.0/8`, `127.0.0.1/32`). */
  token_bound_cidrs: string[];
  token_no_default_policy: boolean;
  token_num_uses: number;
  token_type: 'default' | 'service' | 'batch';
  legacy: { policies: string[]; ttl: number; max_ttl: number; bound_cidrs: string[] };
}

export const EMPTY_TOKEN_PARAMS: TokenParams = {
  token_ttl: 0,
  token_max_ttl: 0,
  token_explicit_max_ttl: 0,
  token_period: 0,
  token_policies: [],
  token_bound_cidrs: [],
  token_no_default_policy: false,
  token_num_uses: 0,
  token_type: 'default',
  legacy: { policies: [], ttl: 0, max_ttl: 0, bound_cidrs: [] },
};

const duration = (description: string) => field.durationSeconds({ description });
const list = (description: string) => field.commaStrings({ description });

/** The token fields of a write path, new names and legacy ones. */
export const tokenFields = {
  token_ttl: duration('Incremental lifetime of issued tokens; consulted again at renewal.'),
  token_max_ttl: duration('Maximum lifetime of issued tokens; consulted again at renewal.'),
  token_explicit_max_ttl: duration('Hard cap on the lifetime of issued tokens, never extended.'),
  token_period: duration('Makes issued tokens periodic with this period.'),
  token_policies: list('Policies of issued tokens (array or comma-separated string).'),
  token_bound_cidrs: list('CIDR blocks logins may come from; issued tokens are bound to them.'),
  token_no_default_policy: field.bool({ description: 'Do not add the `default` policy.' }),
  token_num_uses: field.int({ description: 'Uses of an issued token; 0 = unlimited.' }),
  token_type: field.string({ description: '`service`, `batch` or `default` (the mount decides).' }),
  policies: list('Deprecated: use `token_policies`.'),
  ttl: duration('Deprecated: use `token_ttl`.'),
  max_ttl: duration('Deprecated: use `token_max_ttl`.'),
  bound_cidrs: list('Deprecated: use `token_bound_cidrs`.'),
};

type TokenFieldValues = {
  [K in keyof typeof tokenFields]?: unknown;
};

const nonNegative = (name: string, value: number) => {
  if (value < 0) throw new InvalidRequestError(`'${name}' cannot be negative`);
  return value;
};

/**
 * `current` with the supplied fields applied under the established rules: a legacy name
 * alone fills both slots; a new name alone clears the legacy slot; both → the new one wins.
 * Throws `InvalidRequestError` with the established texts.
 */
export function applyTokenFields(
  current: TokenParams,
  data: TokenFieldValues,
  supplied: ReadonlySet<string>,
): TokenParams {
  const next: TokenParams = { ...current, legacy: { ...current.legacy } };
  const pick = <T>(newName: keyof TokenFieldValues, legacyName: keyof TokenParams['legacy']) => {
    if (supplied.has(newName)) return { value: data[newName] as T, legacy: supplied.has(legacyName) };
    if (supplied.has(legacyName)) return { value: data[legacyName] as T, legacy: true };
    return undefined;
  };
  const policies = pick<string[]>('token_policies', 'policies');
  if (policies) {
    // Legacy policies are parsed like policy names; `token_policies` are stored as written.
    const value = supplied.has('token_policies') ? policies.value : sanitizePolicies(policies.value);
    next.token_policies = value;
    next.legacy.policies = policies.legacy ? value : [];
  }
  const cidrs = pick<string[]>('token_bound_cidrs', 'bound_cidrs');
  if (cidrs) {
    next.token_bound_cidrs = parseCidrs(cidrs.value, 'token_bound_cidrs');
    next.legacy.bound_cidrs = cidrs.legacy ? next.token_bound_cidrs : [];
  }
  const ttl = pick<number>('token_ttl', 'ttl');
  if (ttl) {
    next.token_ttl = nonNegative('token_ttl', ttl.value);
    next.legacy.ttl = ttl.legacy ? ttl.value : 0;
  }
  const maxTtl = pick<number>('token_max_ttl', 'max_ttl');
  if (maxTtl) {
    next.token_max_ttl = nonNegative('token_max_ttl', maxTtl.value);
    next.legacy.max_ttl = maxTtl.legacy ? maxTtl.value : 0;
  }
  applyPlain(next, data, supplied);
  checkTokenParams(next);
  return next;
}

function applyPlain(next: TokenParams, data: TokenFieldValues, supplied: ReadonlySet<string>): void {
  if (supplied.has('token_explicit_max_ttl')) next.token_explicit_max_ttl = data.token_explicit_max_ttl as number;
  if (supplied.has('token_period')) next.token_period = nonNegative('token_period', data.token_period as number);
  if (supplied.has('token_num_uses'))
    next.token_num_uses = nonNegative('token_num_uses', data.token_num_uses as number);
  if (supplied.has('token_no_default_policy')) next.token_no_default_policy = data.token_no_default_policy as boolean;
  if (supplied.has('token_type')) {
    const type = data.token_type as string;
    // Roles of the token store also take `default-service`/`default-batch`; auth methods do not.
    if (type !== '' && type !== 'default' && type !== 'service' && type !== 'batch') {
      throw new InvalidRequestError(`invalid 'token_type' value "${type}"`);
    }
    next.token_type = type === '' ? 'default' : type;
  }
}

function checkTokenParams(p: TokenParams): void {
  if (p.token_ttl > 0 && p.token_max_ttl > 0 && p.token_ttl > p.token_max_ttl) {
    throw new InvalidRequestError("'token_ttl' cannot be greater than 'token_max_ttl'");
  }
  if (p.token_type !== 'batch') return;
  if (p.token_period !== 0) {
    throw new InvalidRequestError(
      "'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens",
    );
  }
  if (p.token_num_uses !== 0) {
    throw new InvalidRequestError(
      "'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count",
    );
  }
}

/** A single host is shown without its mask, as established (`127.0.0.1/32` → `127.0.0.1`). */
function showCidr(cidr: string): string {
  return cidr.replace(/\/(32|128)$/, (m, bits: string) => (cidr.includes(':') === (bits === '128') ? '' : m));
}

/**
 * The read view: every `token_*` key always, plus `policies`, `ttl`, `max_ttl` (the spec's
 * read keys) always, and `bound_cidrs` when the legacy slot is set.
 */
export function tokenReadData(p: TokenParams): Record<string, unknown> {
  const data: Record<string, unknown> = {
    token_bound_cidrs: p.token_bound_cidrs.map(showCidr),
    token_explicit_max_ttl: p.token_explicit_max_ttl,
    token_max_ttl: p.token_max_ttl,
    token_no_default_policy: p.token_no_default_policy,
    token_num_uses: p.token_num_uses,
    token_period: p.token_period,
    token_policies: p.token_policies,
    token_ttl: p.token_ttl,
    token_type: p.token_type,
    // The spec's read response carries these three; they mirror the token_* values.
    policies: p.token_policies,
    ttl: p.token_ttl,
    max_ttl: p.token_max_ttl,
  };
  if (p.legacy.bound_cidrs.length > 0) data.bound_cidrs = p.legacy.bound_cidrs.map(showCidr);
  return data;
}

/** The token part of a login grant. */
export function tokenGrant(p: TokenParams): Omit<LoginGrant, 'aliasName' | 'displayName' | 'metadata'> {
  return {
    policies: p.token_policies,
    ttl: p.token_ttl,
    maxTtl: p.token_max_ttl,
    explicitMaxTtl: p.token_explicit_max_ttl,
    period: p.token_period,
    numUses: p.token_num_uses,
    boundCidrs: p.token_bound_cidrs,
    tokenType: p.token_type,
    noDefaultPolicy: p.token_no_default_policy,
  };
}

/**
 * A login token's renewal under the current settings `p` (their TTLs apply); refused when the
 * policies `p` grants are no longer those the token carries.
 */
export function renewalUnder(p: TokenParams, tokenPolicies: readonly string[]): LoginRenewal {
  if (!equivalentPolicies(p.token_policies, tokenPolicies))
    throw new InvalidRequestError('policies have changed, not renewing');
  return { ttl: p.token_ttl, maxTtl: p.token_max_ttl, period: p.token_period };
}
