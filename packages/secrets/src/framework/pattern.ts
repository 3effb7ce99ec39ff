/**
 * Path patterns in a small segment syntax instead of regexes, so help and OpenAPI can
 * print them back exactly:
 *   `keys/:name`     one segment captured as `name`
 *   `data/*path`     the rest of the path (one or more characters, `/` allowed) as `path`
 *   `metadata/*path?` the rest, possibly empty (`metadata/` lists the mount's root)
 *   `mounts/*path/tune` a greedy capture may be followed by literal segments
 * Literal segments match themselves. Captured values must not end in a period
 * (spec 000, request conventions 5): such a request matches no path.
 */
export interface CompiledPattern {
  readonly source: string;
  readonly captures: readonly string[];
  /** The captured values, or `undefined` when `path` does not match. */
  match(path: string): Record<string, string> | undefined;
  /** OpenAPI form: `/keys/{name}`. */
  readonly openapiPath: string;
  /** The path this pattern matches with `values` as its captures (the inverse of `match`). */
  build(values: Record<string, string>): string;
}

export function compilePattern(source: string): CompiledPattern {
  const captures: string[] = [];
  const openapi: string[] = [];
  const segments = source.split('/');
  const parts = segments.map((segment) => {
    const m = /^([:*])([a-z_][a-z0-9_]*)(\?)?$/.exec(segment);
    if (!m) {
      // A typo such as `:Name` would otherwise become a literal that no request ever matches.
      if (/^[:*]/.test(segment)) throw new Error(`invalid path pattern ${source}: bad capture "${segment}"`);
      openapi.push(segment);
      return escapeRegex(segment);
    }
    const [, kind, name = '', optional] = m;
    if (captures.includes(name)) throw new Error(`invalid path pattern ${source}: "${name}" captured twice`);
    captures.push(name);
    openapi.push(`{${name}}`);
    const body = kind === '*' ? '.' : '[^/]';
    return `(?<${name}>${body}${optional ? '*' : '+'})`;
  });
  const regex = new RegExp(`^${parts.join('/')}$`);
  return {
    source,
    captures,
    openapiPath: `/${openapi.join('/')}`,
    match(path) {
      const m = regex.exec(path);
      if (!m) return undefined;
      const values: Record<string, string> = {};
      for (const name of captures) {
        const value = m.groups?.[name] ?? '';
        if (value.endsWith('.')) return undefined;
        values[name] = value;
      }
      return values;
    },
    build(values) {
      return segments
        .map((segment) => (/^[:*]/.test(segment) ? (values[captureName(segment)] ?? '') : segment))
        .join('/');
    },
  };
}

/** `name` of a `:name`, `*name` or `*name?` segment. */
function captureName(segment: string): string {
  return segment.replace(/^[:*]|\?$/g, '');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
