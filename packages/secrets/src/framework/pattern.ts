import { compileSegmentPattern, InvalidPatternError } from '@ward/base';

/**
 * Path patterns in base's segment syntax (segment-pattern.ts) instead of regexes, so help and OpenAPI
 * can print them back exactly:
 *   `keys/:name`     one segment captured as `name`
 *   `data/*path`     the rest of the path (one or more characters, `/` allowed) as `path`
 *   `metadata/*path?` the rest, possibly empty (`metadata/` lists the mount's root)
 *   `mounts/*path/tune` a greedy capture may be followed by literal segments
 * Literal segments match themselves. Captured values must not end in a period
 * (spec 000, request conventions 5): such a request matches no path.
 *
 * Why the framework does not use base's `Router`: a backend's paths are tried in the order it declares
 * them and the first match answers, as in Vault's framework (a plugin that lists `roles/:name` before
 * `roles/defaults` gets what it asked for), and the framework routes on the path alone (an operation
 * the path lacks is its 405, from resolveOperation). So it keeps its own declared-order loop
 * (`matchFirst`) over base's segment matcher, and runs base's `router.case.ts` with those traits.
 * The two rules of Vault's regexes that base does not have are kept here: the period above, and no
 * newline in a `*rest` (Go's `.` does not match one).
 */
export interface CompiledPattern {
  readonly source: string;
  readonly captures: readonly string[];
  /** The captured values, or `undefined` when `path` does not match. */
  match(path: string): Record<string, string> | undefined;
  /** As `match`, for a path already split on `/`. */
  matchSegments(segments: readonly string[]): Record<string, string> | undefined;
  /** OpenAPI form: `/keys/{name}`. */
  readonly openapiPath: string;
  /** The path this pattern matches with `values` as its captures (the inverse of `match`). */
  build(values: Record<string, string>): string;
}

export function compilePattern(source: string): CompiledPattern {
  const pattern = compileSegmentPattern(source);
  const { captures, segments } = pattern;
  // Captures name fields, which are lower-case; base also reads `:Name` and a bare `*`.
  const odd = captures.find((name) => !/^[a-z_][a-z0-9_]*$/.test(name));
  if (odd !== undefined) throw new InvalidPatternError(`invalid path pattern ${source}: bad capture "${odd}"`);
  const rest = segments.find((s) => s.kind === 'rest')?.name;
  const matchSegments = (path: readonly string[]) => {
    const values = pattern.matchSegments(path);
    if (!values) return undefined;
    for (const name of captures) {
      const value = values[name] as string;
      if (value.endsWith('.') || (name === rest && value.includes('\n'))) return undefined;
    }
    return values;
  };
  return {
    source,
    captures,
    openapiPath: `/${segments.map((s) => (s.kind === 'literal' ? s.text : `{${s.name}}`)).join('/')}`,
    match: (path) => matchSegments(path.split('/')),
    matchSegments,
    build(values) {
      return segments.map((s) => (s.kind === 'literal' ? s.text : (values[s.name] ?? ''))).join('/');
    },
  };
}

/**
 * The first of `defs`, in their order, whose pattern matches `path`, with its captures: the one path
 * match a request costs (the path is split once for all of them).
 */
export function matchFirst<D extends { readonly pattern: CompiledPattern }>(
  defs: readonly D[],
  path: string,
): { def: D; captured: Record<string, string> } | undefined {
  const segments = path.split('/');
  for (const def of defs) {
    const captured = def.pattern.matchSegments(segments);
    if (captured) return { def, captured };
  }
  return undefined;
}
