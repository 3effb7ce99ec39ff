import { CodedError, HclSyntaxError, parseHcl } from '@ward/base';
import { parseDurationSeconds } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { type Capability, isCapability } from './capabilities.js';
import type { ParameterValues, PathRule, Policy } from './policy.js';

type Json = Record<string, unknown>;

/** A policy-text problem; the store and endpoints report it as `failed to parse policy: <detail>`. */
class PolicySyntaxError extends CodedError<'policy_syntax'> {
  readonly code = 'policy_syntax';
}

/** What each legacy `policy = "…"` value stands for. */
const LEGACY_POLICIES: ReadonlyMap<string, readonly Capability[]> = new Map<string, readonly Capability[]>([
  ['deny', ['deny']],
  ['read', ['read', 'list']],
  ['write', ['create', 'read', 'update', 'delete', 'list']],
  ['sudo', ['create', 'read', 'update', 'delete', 'list', 'sudo']],
]);

const TOP_LEVEL_KEYS = new Set(['name', 'path']);
/** Keys of a path block. The enterprise and OpenBao-only ones are accepted and ignored. */
const PATH_KEYS = new Set([
  'policy',
  'capabilities',
  'allowed_parameters',
  'denied_parameters',
  'required_parameters',
  'min_wrapping_ttl',
  'max_wrapping_ttl',
  'mfa_methods',
  'control_group',
  'subscribe_event_types',
  'expiration',
  'pagination_limit',
  'list_scan_response_keys_filter_path',
]);

/**
 * Parses ACL policy text, HCL or JSON, into rules. Every problem is an `InvalidRequestError`
 * whose message starts `failed to parse policy: `, as established clients expect.
 */
export async function parsePolicy(name: string, text: string): Promise<Policy> {
  try {
    const { doc, lineOf } = decode(text);
    checkKeys(doc, TOP_LEVEL_KEYS, '', lineOf);
    const paths: PathRule[] = [];
    for (const [path, block] of pathBlocks(doc.path)) paths.push(parsePathRule(path, block, lineOf));
    return { name, paths };
  } catch (err) {
    if (err instanceof PolicySyntaxError) throw new InvalidRequestError(`failed to parse policy: ${err.message}`);
    throw err;
  }
}

/**
 * HCL1 (or JSON) text as a document. Policies are HCL1 in the established server, so the brace of
 * a block may stand on the next line, and JSON is flattened the way that parser does it.
 */
function decode(text: string): { doc: Json; lineOf: (block: object, key: string) => number | undefined } {
  try {
    const { body, lineOf } = parseHcl(text);
    return { doc: body, lineOf };
  } catch (err) {
    if (err instanceof HclSyntaxError) throw new PolicySyntaxError(err.message);
    throw err;
  }
}

/**
 * `(path, block)` pairs in document order. HCL gives `{path: {p: [block, …]}}`; JSON
 * policies write `{path: {p: block}}`, and the older list forms nest either in arrays.
 */
function* pathBlocks(section: unknown): Generator<[string, Json]> {
  if (section === undefined) return;
  for (const item of Array.isArray(section) ? section : [section]) {
    for (const [path, body] of Object.entries(asObject(item, 'path'))) {
      for (const block of Array.isArray(body) ? body : [body]) yield [path, asObject(block, `path "${path}"`)];
    }
  }
}

function parsePathRule(written: string, block: Json, lineOf: LineOf): PathRule {
  const path = written.startsWith('/') ? written.slice(1) : written;
  const where = `path "${path}"`;
  checkKeys(block, PATH_KEYS, `${where}: `, lineOf);
  if (path.includes('+*')) throw new PolicySyntaxError(`${where}: invalid use of wildcards ('+*' is forbidden)`);
  const hasSegmentWildcards = path.includes('+');
  // A `+` rule keeps its `*`: the matcher needs both to rank it against other candidates.
  const isPrefix = path.endsWith('*');
  const ttls = wrappingTtls(block, where);
  return {
    path: isPrefix && !hasSegmentWildcards ? path.slice(0, -1) : path,
    isPrefix,
    hasSegmentWildcards,
    isTemplated: /\{\{.+?\}\}/.test(path),
    capabilities: capabilities(block, where),
    allowedParameters: parameters(block.allowed_parameters, `${where}: allowed_parameters`),
    deniedParameters: parameters(block.denied_parameters, `${where}: denied_parameters`),
    requiredParameters: stringList(block.required_parameters, `${where}: required_parameters`),
    ...ttls,
  };
}

/** Explicit capabilities plus the legacy `policy` expansion; `deny` drops everything else. */
function capabilities(block: Json, where: string): Capability[] {
  const granted = new Set<Capability>();
  if (block.policy !== undefined) {
    const legacy = typeof block.policy === 'string' ? LEGACY_POLICIES.get(block.policy) : undefined;
    if (!legacy) throw new PolicySyntaxError(`${where}: invalid policy ${JSON.stringify(block.policy)}`);
    for (const c of legacy) granted.add(c);
  }
  for (const c of stringList(block.capabilities, `${where}: capabilities`)) {
    if (!isCapability(c)) throw new PolicySyntaxError(`${where}: invalid capability "${c}"`);
    granted.add(c);
  }
  return granted.has('deny') ? ['deny'] : [...granted];
}

/** A parameter map; names lower-cased because requests are matched on lower-cased names. */
function parameters(raw: unknown, where: string): Map<string, ParameterValues> | undefined {
  if (raw === undefined) return undefined;
  // The HCL block form (`allowed_parameters { … }`) arrives as a list of maps.
  const maps = Array.isArray(raw) ? raw.map((m) => asObject(m, where)) : [asObject(raw, where)];
  const out = new Map<string, ParameterValues>();
  for (const map of maps) {
    for (const [name, values] of Object.entries(map)) {
      if (!Array.isArray(values)) throw new PolicySyntaxError(`${where}: values of "${name}" must be a list`);
      out.set(name.toLowerCase(), values);
    }
  }
  return out;
}

function wrappingTtls(block: Json, where: string) {
  const ttl = (key: string) => {
    const raw = block[key];
    if (raw === undefined || raw === '') return 0;
    try {
      return parseDurationSeconds(raw, key);
    } catch (err) {
      throw new PolicySyntaxError(`${where}: error parsing ${key}: ${(err as Error).message}`);
    }
  };
  const minWrappingTtlSeconds = ttl('min_wrapping_ttl');
  const maxWrappingTtlSeconds = ttl('max_wrapping_ttl');
  if (maxWrappingTtlSeconds > 0 && maxWrappingTtlSeconds < minWrappingTtlSeconds) {
    throw new PolicySyntaxError(`${where}: max_wrapping_ttl cannot be less than min_wrapping_ttl`);
  }
  return { minWrappingTtlSeconds, maxWrappingTtlSeconds };
}

function stringList(raw: unknown, where: string): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) {
    throw new PolicySyntaxError(`${where}: expected a list of strings`);
  }
  return raw as string[];
}

type LineOf = (block: object, key: string) => number | undefined;

function checkKeys(obj: Json, valid: ReadonlySet<string>, where: string, lineOf: LineOf): void {
  for (const key of Object.keys(obj)) {
    if (valid.has(key)) continue;
    const line = lineOf(obj, key);
    throw new PolicySyntaxError(`${where}invalid key "${key}"${line ? ` on line ${line}` : ''}`);
  }
}

function asObject(value: unknown, where: string): Json {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Json;
  throw new PolicySyntaxError(`${where}: expected an object`);
}
