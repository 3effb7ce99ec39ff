import type { Capability } from './capabilities.js';

/**
 * Accepted values of one request parameter. An empty list accepts any value; string items
 * may start or end with a `*` glob; other items compare by deep equality.
 */
export type ParameterValues = readonly unknown[];

/** One `path "<glob>" { … }` block of a policy, after parsing and validation. */
export interface PathRule {
  /** The path as written, leading `/` removed; a plain prefix rule also loses its trailing `*`. */
  path: string;
  /** The rule ends in `*` and so matches every path that starts with `path`. */
  isPrefix: boolean;
  /** The path holds a `+` (exactly one segment). Such a rule keeps its trailing `*` in `path`. */
  hasSegmentWildcards: boolean;
  /** The path holds `{{…}}` placeholders that are filled from the caller's identity per request. */
  isTemplated: boolean;
  /** Granted capabilities; a rule with `deny` holds `deny` alone. */
  capabilities: readonly Capability[];
  /** Parameter name (lower case) → accepted values; key `*` = any parameter. Absent = no restriction. */
  allowedParameters?: ReadonlyMap<string, ParameterValues>;
  /** Parameter name (lower case) → refused values; key `*` = every parameter. */
  deniedParameters?: ReadonlyMap<string, ParameterValues>;
  /** Names that must be present in the request data. */
  requiredParameters: readonly string[];
  /** When non-zero, the request must ask for response wrapping with at least this TTL. */
  minWrappingTtlSeconds: number;
  /** When non-zero, the request must ask for response wrapping with at most this TTL. */
  maxWrappingTtlSeconds: number;
}

/** A named ACL policy: its parsed rules. The source text is kept by the store. */
export interface Policy {
  name: string;
  paths: readonly PathRule[];
}

/** Turns policy text into a `Policy`; injectable so tests can count parses. */
export type PolicyParser = (name: string, text: string) => Promise<Policy>;
