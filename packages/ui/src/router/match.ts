/** Parameters captured from a path: `:name` one segment, `*name` the rest (maybe empty), decoded. */
export type Params = Readonly<Record<string, string>>;

/**
 * Matches `path` (`/secrets/secret/kv/a/b`) against `pattern` (`/secrets/:mount/kv/*path`);
 * undefined when it does not match.
 */
export function matchPath(pattern: string, path: string): Params | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/');
  if (have[0] === '') have.shift();
  const params: Record<string, string> = Object.create(null);
  for (const [i, part] of want.entries()) {
    if (part.startsWith('*')) {
      params[part.slice(1)] = have.slice(i).map(decode).join('/');
      return params;
    }
    const seg = have[i];
    if (seg === undefined || seg === '') return undefined;
    if (part.startsWith(':')) params[part.slice(1)] = decode(seg);
    else if (part !== seg) return undefined;
  }
  const rest = have.slice(want.length);
  return rest.length === 0 || (rest.length === 1 && rest[0] === '') ? params : undefined;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A path built from segments, each encoded (a mount named `team/kv` is one segment: `team%2Fkv`). */
export function pathOf(...segments: string[]): string {
  return `/${segments.map(encodeURIComponent).join('/')}`;
}
