import { parseGoBool } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import { setOwn } from '../logical/own-entries.js';
import { parseDurationSeconds } from './duration.js';

/** The JSON-schema shape a field shows in OpenAPI. */
export interface OpenApiType {
  type: 'string' | 'integer' | 'boolean' | 'object' | 'array';
  format?: string;
  items?: { type: string };
  /** The values an enum field accepts. */
  enum?: readonly string[];
}

/**
 * A typed field of a path: how a raw JSON/query value is coerced, its default and its
 * documentation. `T` is the type the handler sees.
 */
export interface FieldSpec<T> {
  readonly description: string;
  readonly required: boolean;
  /** Operations that need the field (besides `required`, which means every write). */
  readonly requiredFor: readonly string[];
  readonly default: T | undefined;
  /** Set on fields captured from the URL path. */
  readonly inPath: boolean;
  /**
   * A path capture naming an object whose name the backend folds to lower case (`Admin` and
   * `admin` are one user): the router lower-cases it in the path the ACL judges, audit logs and
   * the backend is called with, so a policy about `admin` also covers `ADMIN` (issue 28).
   */
  readonly isCaseInsensitive: boolean;
  /**
   * A secret the server takes and never reads back (a password, a private key, an API token): its
   * OpenAPI property says `x-vault-displayAttrs: {sensitive: true}`, as the established servers'
   * do, so the web UI makes it a password field sent only when typed; a backend's read leaves it out
   * (`withoutSensitive`).
   */
  readonly isSensitive: boolean;
  readonly openapi: OpenApiType;
  /** Coerces a supplied raw value, throwing a field-validation `InvalidRequestError`. */
  parse(raw: unknown, name: string): T;
}

interface FieldOptions<T> {
  description: string;
  /** Needed on every write (`create`, `update`). */
  required?: boolean;
  /** Needed on these operations only (`['update']` also covers `create`, and back). */
  requiredFor?: ReadonlyArray<'read' | 'create' | 'update' | 'patch' | 'delete' | 'list'>;
  default?: T;
  /** Never read back (see `FieldSpec.isSensitive`). */
  sensitive?: boolean;
}

/** `T` when the options give a default or make the field required, else `T | undefined`. */
type Valued<T, O> = O extends { default: T } ? T : O extends { required: true } ? T : T | undefined;

function make<T>(
  openapi: OpenApiType,
  parse: (raw: unknown, name: string) => T,
  o: FieldOptions<T>,
  inPath = false,
  isCaseInsensitive = false,
) {
  const { description, required = false, requiredFor = [], default: fallback, sensitive = false } = o;
  return {
    description,
    required,
    requiredFor,
    default: fallback,
    inPath,
    isCaseInsensitive,
    isSensitive: sensitive,
    openapi,
    parse,
  };
}

/** `data` without the fields `fields` declares sensitive: what a read of a configuration may show. */
export function withoutSensitive<T extends object>(
  fields: Readonly<Record<string, FieldSpec<unknown>>>,
  data: T,
): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !fields[k]?.isSensitive)) as Partial<T>;
}

export function conversionError(name: string, detail: string): InvalidRequestError {
  return new InvalidRequestError(`Field validation failed: error converting input for field "${name}": ${detail}`);
}

function parseString(raw: unknown, name: string): string {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  throw conversionError(name, `expected a string, got ${describe(raw)}`);
}

function parseInteger(raw: unknown, name: string): number {
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n === 'number' && Number.isInteger(n)) return n;
  throw conversionError(name, `expected an integer, got ${describe(raw)}`);
}

/** Booleans arrive as JSON booleans or, from forms and queries, as `"true"`-like strings. */
function parseBool(raw: unknown, name: string): boolean {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number' && (raw === 0 || raw === 1)) return raw === 1;
  // An empty string is false, as the established servers' weak decoding reads it (hvac sends `""` for unset flags).
  const text = typeof raw === 'string' ? (raw === '' ? false : parseGoBool(raw)) : undefined;
  if (text !== undefined) return text;
  throw conversionError(name, `expected a boolean, got ${describe(raw)}`);
}

/** A comma-delimited string or an array of strings; items trimmed, empty items dropped. */
function parseCommaStrings(raw: unknown, name: string): string[] {
  const items = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : undefined;
  if (!items) throw conversionError(name, `expected a list or a comma-separated string, got ${describe(raw)}`);
  return items.map((item) => parseString(item, name).trim()).filter((item) => item !== '');
}

function parseStrings(raw: unknown, name: string): string[] {
  if (typeof raw === 'string') return [raw];
  if (!Array.isArray(raw)) throw conversionError(name, `expected a list of strings, got ${describe(raw)}`);
  return raw.map((item) => parseString(item, name));
}

function parseObject(raw: unknown, name: string): Record<string, unknown> {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw === 'string' && raw.trim().startsWith('{')) {
    try {
      return parseObject(JSON.parse(raw), name);
    } catch {
      // fall through to the error below
    }
  }
  throw conversionError(name, `expected a map, got ${describe(raw)}`);
}

/**
 * A map of string to string, or a list of `key=value` strings; a lone `key=value` string
 * (a form or query value) is a list of one, as Go's weak decoding makes it.
 */
function parseStringMap(raw: unknown, name: string): Record<string, string> {
  const pairs = typeof raw === 'string' && !raw.trim().startsWith('{') ? [raw] : raw;
  if (Array.isArray(pairs)) {
    const out: Record<string, string> = {};
    for (const item of pairs) {
      const text = parseString(item, name);
      const eq = text.indexOf('=');
      if (eq <= 0) throw conversionError(name, `expected "key=value", got ${JSON.stringify(text)}`);
      setOwn(out, text.slice(0, eq), text.slice(eq + 1));
    }
    return out;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parseObject(raw, name))) setOwn(out, k, parseString(v, name));
  return out;
}

/** As `parseStringMap`, but a map value may be `null`: in a merge patch that removes the key. */
function parseNullableStringMap(raw: unknown, name: string): Record<string, string | null> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return parseStringMap(raw, name);
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(raw)) setOwn(out, k, v === null ? null : parseString(v, name));
  return out;
}

function describe(raw: unknown): string {
  if (raw === null) return 'null';
  if (Array.isArray(raw)) return 'a list';
  return typeof raw === 'object' ? 'a map' : JSON.stringify(raw);
}

/** Field builders. Each call returns a `FieldSpec` whose value type follows from its options. */
export const field = {
  string: <O extends FieldOptions<string>>(o: O): FieldSpec<Valued<string, O>> =>
    make({ type: 'string' }, parseString, o) as FieldSpec<Valued<string, O>>,
  int: <O extends FieldOptions<number>>(o: O): FieldSpec<Valued<number, O>> =>
    make({ type: 'integer' }, parseInteger, o) as FieldSpec<Valued<number, O>>,
  bool: <O extends FieldOptions<boolean>>(o: O): FieldSpec<Valued<boolean, O>> =>
    make({ type: 'boolean' }, parseBool, o) as FieldSpec<Valued<boolean, O>>,
  /** Seconds, from an integer or a duration string such as `"1h"`. */
  durationSeconds: <O extends FieldOptions<number>>(o: O): FieldSpec<Valued<number, O>> =>
    make({ type: 'string', format: 'duration' }, parseDurationSeconds, o) as FieldSpec<Valued<number, O>>,
  commaStrings: <O extends FieldOptions<string[]>>(o: O): FieldSpec<Valued<string[], O>> =>
    make({ type: 'array', items: { type: 'string' } }, parseCommaStrings, o) as FieldSpec<Valued<string[], O>>,
  strings: <O extends FieldOptions<string[]>>(o: O): FieldSpec<Valued<string[], O>> =>
    make({ type: 'array', items: { type: 'string' } }, parseStrings, o) as FieldSpec<Valued<string[], O>>,
  ints: <O extends FieldOptions<number[]>>(o: O): FieldSpec<Valued<number[], O>> =>
    make(
      { type: 'array', items: { type: 'integer' } },
      // A blank form field arrives as '' and means no items, not one unparsable item.
      (raw, name) =>
        (raw === '' ? [] : typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : [raw]).map((v) =>
          parseInteger(v, name),
        ),
      o,
    ) as FieldSpec<Valued<number[], O>>,
  /** A list of maps (transit's `batch_input`); a JSON string of one is decoded, as Go's weak decoding does. */
  objects: <O extends FieldOptions<Record<string, unknown>[]>>(o: O): FieldSpec<Valued<Record<string, unknown>[], O>> =>
    make(
      { type: 'array', items: { type: 'object' } },
      (raw, name) => {
        let items = raw;
        if (typeof raw === 'string' && raw.trim().startsWith('[')) {
          try {
            items = JSON.parse(raw);
          } catch {
            throw conversionError(name, 'expected a list of maps, got a string that is not JSON');
          }
        }
        if (!Array.isArray(items)) throw conversionError(name, `expected a list of maps, got ${describe(raw)}`);
        return items.map((item) => parseObject(item, name));
      },
      o,
    ) as FieldSpec<Valued<Record<string, unknown>[], O>>,
  object: <O extends FieldOptions<Record<string, unknown>>>(o: O): FieldSpec<Valued<Record<string, unknown>, O>> =>
    make({ type: 'object' }, parseObject, o) as FieldSpec<Valued<Record<string, unknown>, O>>,
  stringMap: <O extends FieldOptions<Record<string, string>>>(o: O): FieldSpec<Valued<Record<string, string>, O>> =>
    make({ type: 'object' }, parseStringMap, o) as FieldSpec<Valued<Record<string, string>, O>>,
  /** A string map whose values may be `null`, for fields a merge patch edits key by key. */
  nullableStringMap: <O extends FieldOptions<Record<string, string | null>>>(
    o: O,
  ): FieldSpec<Valued<Record<string, string | null>, O>> =>
    make({ type: 'object' }, parseNullableStringMap, o) as FieldSpec<Valued<Record<string, string | null>, O>>,
  /** One of `values` (compared exactly); help and OpenAPI list them. */
  enum: <const V extends string, O extends FieldOptions<NoInfer<V>>>(
    o: O & { values: readonly V[] },
  ): FieldSpec<Valued<V, O>> =>
    make(
      { type: 'string', enum: o.values },
      (raw, name) => {
        const text = parseString(raw, name);
        if ((o.values as readonly string[]).includes(text)) return text as V;
        throw conversionError(name, `expected one of [${o.values.join(' ')}], got ${JSON.stringify(text)}`);
      },
      o,
    ) as FieldSpec<Valued<V, O>>,
  /**
   * A value captured from the URL path (`:name` or `*name` in the pattern); always present when
   * matched. `caseInsensitive`: the backend folds this name to lower case (see `isCaseInsensitive`).
   */
  path: (o: { description: string; caseInsensitive?: boolean }): PathFieldSpec =>
    make(
      { type: 'string' },
      parseString,
      { description: o.description, required: true },
      true,
      o.caseInsensitive ?? false,
    ) as PathFieldSpec,
};

/** A field captured from the URL path: its type says so, so an existence check can be given only these. */
export type PathFieldSpec = FieldSpec<string> & { readonly inPath: true };

export type Fields = Record<string, FieldSpec<unknown>>;

/** The captured values of a set of fields (its `field.path()` ones), the only data an existence check gets. */
export type CapturedValues<F extends Fields> = { [K in keyof F as F[K] extends { inPath: true } ? K : never]: string };

/** The typed `data` a handler receives for a set of fields. */
export type FieldValues<F extends Fields> = { [K in keyof F]: F[K] extends FieldSpec<infer T> ? T : never };
