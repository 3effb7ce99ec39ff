import type { Permissions } from './acl-permissions.js';

/**
 * A candidate among the non-exact rules matching a path, with what the established
 * precedence ranks it by ("most specific wins").
 */
export interface Candidate {
  /** Position of the first `+` or `*`: later is more specific. */
  firstWildcard: number;
  isPrefix: boolean;
  /** Number of `+` segments: fewer is more specific. */
  wildcards: number;
  /** The path without a trailing `*`: longer is more specific. */
  path: string;
  perms: Permissions;
}

/** A `+` rule, split once at compile time. */
export interface SegmentRule extends Candidate {
  parts: readonly string[];
}

/** Compiles a `+` rule; `written` keeps its trailing `*` when it is also a prefix rule. */
export function segmentRule(written: string, perms: Permissions): SegmentRule {
  const isPrefix = written.endsWith('*');
  const path = isPrefix ? written.slice(0, -1) : written;
  const parts = path.split('/');
  return {
    firstWildcard: written.indexOf('+'),
    isPrefix,
    wildcards: parts.filter((p) => p === '+').length,
    path,
    parts,
    perms,
  };
}

/**
 * Whether a `+` rule matches a path split on `/`: `+` takes any one segment, other
 * segments match themselves, and a prefix rule's last segment may be a prefix of the
 * path's segment there, the rest of the path following.
 */
export function segmentRuleMatches(rule: SegmentRule, parts: readonly string[]): boolean {
  const ruleParts = rule.parts;
  const last = ruleParts.length - 1;
  if (parts.length < ruleParts.length) return false;
  if (!rule.isPrefix && parts.length !== ruleParts.length) return false;
  for (let i = 0; i <= last; i++) {
    const want = ruleParts[i] as string;
    const got = parts[i] as string;
    if (want === '+' || want === got) continue;
    if (rule.isPrefix && i === last && got.startsWith(want)) continue;
    return false;
  }
  return true;
}

/**
 * The established precedence between two matching candidates: the later first wildcard
 * wins; then a non-prefix rule beats a prefix rule; then fewer `+` segments; then the
 * longer path; then, arbitrarily but deterministically, the lexically greater path.
 */
export function outranks(a: Candidate, b: Candidate): boolean {
  if (a.firstWildcard !== b.firstWildcard) return a.firstWildcard > b.firstWildcard;
  if (a.isPrefix !== b.isPrefix) return !a.isPrefix;
  if (a.wildcards !== b.wildcards) return a.wildcards < b.wildcards;
  if (a.path.length !== b.path.length) return a.path.length > b.path.length;
  return a.path > b.path;
}
