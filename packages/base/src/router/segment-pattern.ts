import { CodedError } from '../coded-error.js';

/**
 * One route pattern, matched segment by segment against a path split on `/`:
 *   `keys/:name`         one non-empty segment captured as `name`
 *   `data/*path`         the rest of the path (one or more characters, `/` allowed) as `path`
 *   `metadata/*path?`    the rest, possibly empty (`metadata/` captures `path` = '')
 *   `mounts/*path/tune`  a rest capture may be followed by fixed segments (it takes all but those)
 *   `pprof/*`            an unnamed rest, possibly empty, captured as `*`
 * Anything else is a literal that matches itself exactly (no escapes decoded). At most one rest capture.
 * The secrets framework, the agent's and the platform's routers all match with this.
 */
export type PatternSegment =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'rest'; readonly name: string; readonly isOptional: boolean };

export interface SegmentPattern {
  readonly source: string;
  readonly segments: readonly PatternSegment[];
  /** The capture names, in order. */
  readonly captures: readonly string[];
  /**
   * The raw captured values of a path already split on `/` (`path.split('/')`), or `undefined` when it
   * does not match. With `allowsEmptyRest`, an optional rest may also take no segment at all (for a
   * router that drops empty segments, where `list/` arrives as `['list']`).
   */
  matchSegments(path: readonly string[], allowsEmptyRest?: boolean): Record<string, string> | undefined;
}

/** A pattern error in the program's own route table: a bug, found when the table is built. */
export class InvalidPatternError extends CodedError<'invalid_pattern'> {
  readonly code = 'invalid_pattern';
}

const CAPTURE = /^([:*])([A-Za-z_][A-Za-z0-9_]*)(\?)?$/;

/** Compiles `source` (split on `/`, empty segments kept) into a matcher. */
export function compileSegmentPattern(source: string, segmentTexts = source.split('/')): SegmentPattern {
  const captures: string[] = [];
  const segments = segmentTexts.map((text): PatternSegment => {
    if (text === '*') return capture('*', { kind: 'rest', name: '*', isOptional: true });
    const m = CAPTURE.exec(text);
    if (!m) {
      // A typo such as `:na-me` would otherwise become a literal that no request ever matches.
      if (/^[:*]/.test(text)) throw new InvalidPatternError(`invalid path pattern ${source}: bad capture "${text}"`);
      return { kind: 'literal', text };
    }
    const [, kind, name = '', optional] = m;
    if (kind === ':' && optional) {
      throw new InvalidPatternError(`invalid path pattern ${source}: "${text}" cannot be optional`);
    }
    return capture(name, kind === ':' ? { kind: 'param', name } : { kind: 'rest', name, isOptional: optional === '?' });
  });
  function capture(name: string, segment: PatternSegment): PatternSegment {
    if (captures.includes(name)) {
      throw new InvalidPatternError(`invalid path pattern ${source}: "${name}" captured twice`);
    }
    captures.push(name);
    return segment;
  }
  const restIndex = segments.findIndex((s) => s.kind === 'rest');
  if (restIndex !== -1 && segments.findIndex((s, i) => i > restIndex && s.kind === 'rest') !== -1) {
    throw new InvalidPatternError(`invalid path pattern ${source}: more than one rest capture`);
  }
  const rest = restIndex === -1 ? undefined : (segments[restIndex] as PatternSegment & { kind: 'rest' });
  const afterRest = restIndex === -1 ? 0 : segments.length - restIndex - 1;
  // The fields the hot loop reads, kept as plain arrays (one path match per request in every server).
  const kinds = segments.map((s) => s.kind);
  const texts = segments.map((s) => (s.kind === 'literal' ? s.text : s.name));

  /** Whether path segment `got` fits pattern segment `i`, which is not the rest. */
  const fits = (i: number, got: string) => (kinds[i] === 'literal' ? got === texts[i] : got !== '');

  return {
    source,
    segments,
    captures,
    matchSegments(path, allowsEmptyRest = false) {
      const n = path.length;
      if (!rest) {
        if (n !== segments.length) return undefined;
        for (let i = 0; i < n; i++) if (!fits(i, path[i] as string)) return undefined;
        return collect(path, 0);
      }
      const minRest = rest.isOptional && allowsEmptyRest ? 0 : 1;
      if (n < restIndex + minRest + afterRest) return undefined;
      for (let i = 0; i < restIndex; i++) if (!fits(i, path[i] as string)) return undefined;
      const shift = n - segments.length; // path index = pattern index + shift after the rest
      for (let i = restIndex + 1; i < segments.length; i++) if (!fits(i, path[i + shift] as string)) return undefined;
      const value = path.slice(restIndex, restIndex + shift + 1).join('/');
      if (value === '' && !rest.isOptional) return undefined;
      const params = collect(path, shift);
      params[rest.name] = value;
      return params;
    },
  };

  /** The `param` captures; a segment after the rest is `shift` places on in the path. */
  function collect(path: readonly string[], shift: number): Record<string, string> {
    const params: Record<string, string> = {};
    if (captures.length === 0) return params;
    for (let i = 0; i < segments.length; i++) {
      if (kinds[i] === 'param') params[texts[i] as string] = path[rest && i > restIndex ? i + shift : i] as string;
    }
    return params;
  }
}
