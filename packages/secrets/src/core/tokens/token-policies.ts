import { sanitizePolicies } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { TokenEntry } from './token-entry.js';
import type { TokenRole } from './token-roles.js';

/** Policies that exist for the server's own use and may never be given to a token. */
const NON_ASSIGNABLE = ['response-wrapping', 'control-group'];

/** `*` anywhere in a pattern matches any run of characters (the established `glob` of role lists). */
export function matchesGlob(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!value.startsWith(first) || value.length < first.length + last.length) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = value.indexOf(middle, at);
    if (found === -1) return false;
    at = found + middle.length;
  }
  return value.slice(at).endsWith(last) && value.length - last.length >= at;
}

export interface PolicyRequest {
  /** Policies asked for; empty = inherit. */
  policies: string[];
  noDefaultPolicy: boolean;
  /** Whether the caller has `sudo` (or root) on the create path. */
  isSudo: boolean;
  parent: TokenEntry;
  role: TokenRole | undefined;
}

/**
 * The policies of a new token, following the established create rules: a role with
 * allowed or disallowed lists decides on its own; otherwise no policies means the
 * parent's, and a caller without sudo may only ask for a subset of the parent's.
 * `default` is added for sudo callers, when the parent has it, or by a role, unless
 * `no_default_policy`. Throws `InvalidRequestError` with the established texts.
 */
export function resolvePolicies(r: PolicyRequest): string[] {
  const noDefault = r.noDefaultPolicy || (r.role?.token_no_default_policy ?? false);
  const requested = sanitizePolicies(r.policies);
  let policies: string[];
  let addDefault = false;
  if (r.role && hasPolicyLists(r.role)) {
    policies = rolePolicies(r, !noDefault && !r.role.disallowed_policies.includes('default'));
  } else if (requested.length === 0) {
    // Inherited policies keep `default` only when the parent has it.
    policies = sanitizePolicies(r.parent.policies);
  } else if (!r.isSudo) {
    const parentPolicies = new Set(sanitizePolicies(r.parent.policies));
    if (!requested.every((p) => parentPolicies.has(p))) {
      throw new InvalidRequestError('child policies must be subset of parent');
    }
    policies = requested;
    addDefault = !noDefault && parentPolicies.has('default');
  } else {
    policies = requested;
    addDefault = !noDefault;
  }
  let result = sanitizePolicies(policies, addDefault);
  if (noDefault) result = result.filter((p) => p !== 'default');

  for (const policy of result) {
    if (NON_ASSIGNABLE.includes(policy)) throw new InvalidRequestError(`cannot assign policy "${policy}"`);
  }
  if (result.includes('root') && !r.parent.policies.includes('root')) {
    throw new InvalidRequestError('root tokens may not be created without parent token being root');
  }
  return result;
}

function hasPolicyLists(role: TokenRole): boolean {
  return (
    role.allowed_policies.length > 0 ||
    role.disallowed_policies.length > 0 ||
    role.allowed_policies_glob.length > 0 ||
    role.disallowed_policies_glob.length > 0
  );
}

/** A role with allowed/disallowed lists grants policies apart from the parent's (that is what roles are for). */
function rolePolicies(r: PolicyRequest, addDefault: boolean): string[] {
  const role = r.role as TokenRole;
  let policies = r.policies.length > 0 ? sanitizePolicies(r.policies, addDefault) : [];
  if (role.allowed_policies.length > 0 || role.allowed_policies_glob.length > 0) {
    const allowed = sanitizePolicies(role.allowed_policies, addDefault);
    const globs = role.allowed_policies_glob.map((g) => g.trim().toLowerCase());
    if (policies.length === 0) {
      policies = allowed;
    } else {
      for (const policy of policies) {
        if (!allowed.includes(policy) && !globs.some((g) => matchesGlob(g, policy))) {
          throw new InvalidRequestError(
            `token policies (${goList(policies)}) must be subset of the role's allowed policies (${goList(allowed)}) or glob policies (${goList(globs)})`,
          );
        }
      }
    }
  } else if (policies.length === 0) {
    policies = sanitizePolicies(r.parent.policies, addDefault);
  }
  const disallowed = role.disallowed_policies;
  const disallowedGlobs = role.disallowed_policies_glob.map((g) => g.trim().toLowerCase());
  for (const policy of policies) {
    if (disallowed.includes(policy) || disallowedGlobs.some((g) => matchesGlob(g, policy))) {
      throw new InvalidRequestError(`token policy "${policy}" is disallowed by this role`);
    }
  }
  return policies;
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
