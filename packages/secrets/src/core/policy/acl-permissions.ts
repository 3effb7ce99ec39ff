import { isDeepStrictEqual } from 'node:util';
import { CAPABILITY_BITS, type Capability, capabilityNames, DENY, SUDO } from './capabilities.js';
import type { ParameterValues, PathRule } from './policy.js';

/** The answer of an ACL for one request. */
export interface AclDecision {
  readonly allowed: boolean;
  /** Capabilities the matching rule grants (sorted; `['deny']` when it denies or nothing matched). */
  readonly capabilities: readonly Capability[];
  /** The matching rule grants `sudo`, as root-protected paths need. */
  readonly isSudo: boolean;
}

/**
 * The merged permissions of every rule that names one path (across all of a token's
 * policies). Built while compiling, then frozen by `finalize`, which also prepares the two
 * possible decisions so a check allocates nothing.
 */
export interface Permissions {
  bits: number;
  allowed: Map<string, ParameterValues> | undefined;
  denied: Map<string, ParameterValues> | undefined;
  required: string[];
  minWrappingTtlSeconds: number;
  maxWrappingTtlSeconds: number;
  grant: AclDecision;
  refuse: AclDecision;
}

const DENY_ONLY: readonly Capability[] = Object.freeze(['deny']);
export const NO_MATCH: AclDecision = Object.freeze({ allowed: false, capabilities: DENY_ONLY, isSudo: false });

function ruleBits(rule: PathRule): number {
  let bits = 0;
  for (const c of rule.capabilities) bits |= CAPABILITY_BITS[c];
  return bits;
}

function toMap(params: PathRule['allowedParameters']): Map<string, ParameterValues> | undefined {
  return params && params.size > 0 ? new Map(params) : undefined;
}

/** Permissions of the first rule seen for a path. */
export function permissionsOf(rule: PathRule): Permissions {
  const bits = ruleBits(rule);
  const isDeny = (bits & DENY) !== 0;
  return {
    bits: isDeny ? DENY : bits,
    allowed: isDeny ? undefined : toMap(rule.allowedParameters),
    denied: isDeny ? undefined : toMap(rule.deniedParameters),
    required: rule.requiredParameters.map((p) => p.toLowerCase()),
    minWrappingTtlSeconds: rule.minWrappingTtlSeconds,
    maxWrappingTtlSeconds: rule.maxWrappingTtlSeconds,
    grant: NO_MATCH,
    refuse: NO_MATCH,
  };
}

/**
 * Adds another rule for the same path, as the established servers merge policies:
 * capabilities OR-ed, any `deny` wins outright, the lesser wrapping TTLs kept, parameter
 * lists joined (an empty list, meaning "any value", wins over values).
 */
export function mergeRule(into: Permissions, rule: PathRule): void {
  if (into.bits & DENY) return;
  const bits = ruleBits(rule);
  if (bits & DENY) {
    into.bits = DENY;
    into.allowed = undefined;
    into.denied = undefined;
    return;
  }
  into.bits |= bits;
  into.minWrappingTtlSeconds = lesserTtl(into.minWrappingTtlSeconds, rule.minWrappingTtlSeconds);
  into.maxWrappingTtlSeconds = lesserTtl(into.maxWrappingTtlSeconds, rule.maxWrappingTtlSeconds);
  into.allowed = mergeParameters(into.allowed, toMap(rule.allowedParameters));
  into.denied = mergeParameters(into.denied, toMap(rule.deniedParameters));
  for (const p of rule.requiredParameters) {
    const lower = p.toLowerCase();
    if (!into.required.includes(lower)) into.required.push(lower);
  }
}

/** Zero means "not set", so it never wins. */
function lesserTtl(a: number, b: number): number {
  return b > 0 && (a === 0 || b < a) ? b : a;
}

function mergeParameters(
  into: Map<string, ParameterValues> | undefined,
  from: Map<string, ParameterValues> | undefined,
): Map<string, ParameterValues> | undefined {
  if (!from) return into;
  if (!into) return new Map(from);
  for (const [name, values] of from) {
    const existing = into.get(name);
    const anyValue = values.length === 0 || (existing !== undefined && existing.length === 0);
    into.set(name, anyValue ? [] : [...values, ...(existing ?? [])]);
  }
  return into;
}

/** Prepares the decisions once compiling is over. */
export function finalize(p: Permissions): void {
  const capabilities = Object.freeze(capabilityNames(p.bits));
  const isSudo = (p.bits & SUDO) !== 0;
  p.grant = Object.freeze({ allowed: true, capabilities, isSudo });
  p.refuse = Object.freeze({ allowed: false, capabilities, isSudo });
}

/**
 * Whether the request's parameters pass the rule, in the established order: required
 * names first, then an empty body passes, then denied values, then allowed values.
 */
export function parametersAllowed(p: Permissions, data: Readonly<Record<string, unknown>> | undefined): boolean {
  const names = data ? Object.keys(data) : [];
  if (p.required.length > 0) {
    const present = new Set(names.map((n) => n.toLowerCase()));
    if (!p.required.every((r) => present.has(r))) return false;
  }
  if (names.length === 0 || !data) return true;
  if (p.denied) {
    if (p.denied.has('*')) return false;
    for (const name of names) {
      const values = p.denied.get(name.toLowerCase());
      if (values && valueInList(data[name], values)) return false;
    }
  }
  if (!p.allowed) return true;
  const allowsAny = p.allowed.has('*');
  if (allowsAny && p.allowed.size === 1) return true;
  for (const name of names) {
    const values = p.allowed.get(name.toLowerCase());
    if (values ? !valueInList(data[name], values) : !allowsAny) return false;
  }
  return true;
}

/** An empty list holds every value. */
function valueInList(value: unknown, list: ParameterValues): boolean {
  if (list.length === 0) return true;
  return list.some((item) => {
    if (item === null || item === undefined || value === null || value === undefined) return item === value;
    if (typeof item === 'string' && typeof value === 'string') return globMatch(item, value);
    return isDeepStrictEqual(item, value);
  });
}

/** `*` at the start and/or end of a listed value matches any text there. */
function globMatch(pattern: string, value: string): boolean {
  if (pattern.length < 2) return pattern === value;
  const starts = pattern.startsWith('*');
  const ends = pattern.endsWith('*');
  if (starts && ends) return value.includes(pattern.slice(1, -1));
  if (starts) return value.endsWith(pattern.slice(1));
  if (ends) return value.startsWith(pattern.slice(0, -1));
  return value === pattern;
}

/** Whether a requested wrapping TTL satisfies the rule's bounds (no wrapping fails any bound). */
export function wrappingAllowed(p: Permissions, wrapTtlSeconds: number | undefined): boolean {
  const { minWrappingTtlSeconds: min, maxWrappingTtlSeconds: max } = p;
  if (max > 0 && (wrapTtlSeconds === undefined || wrapTtlSeconds > max)) return false;
  if (min > 0 && (wrapTtlSeconds === undefined || wrapTtlSeconds < min)) return false;
  // Merging can leave max below min even though each rule was valid on its own.
  return !(min > 0 && max > 0 && max < min);
}
