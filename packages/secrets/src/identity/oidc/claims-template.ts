import { parseDurationSeconds } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { setOwn } from '../../logical/own-entries.js';

/** An alias of the entity, as templates see it. */
export interface TemplateAlias {
  id: string;
  name: string;
  mount_accessor: string;
  metadata: Readonly<Record<string, string>> | null;
  custom_metadata: Readonly<Record<string, string>> | null;
}

/** What a claims template may refer to. */
export interface TemplateFacts {
  /** Absent: any `identity.entity.*` directive is an error. */
  entity?: {
    id: string;
    name: string;
    metadata: Readonly<Record<string, string>> | null;
    aliases: readonly TemplateAlias[];
  };
  /** The entity's groups, direct and inherited. Empty: any `identity.groups.*` directive is an error. */
  groups: ReadonlyArray<{ id: string; name: string; namespace_id: string; metadata: Record<string, string> | null }>;
  /** Groups named in `identity.groups.names.<name>` must be of this namespace. */
  namespaceId: string;
  nowMs: number;
}

/** A template that cannot be filled in: unbalanced braces, an unknown directive, a missing value. */
export class TemplateError extends InvalidRequestError {}

/**
 * Fills a claims template in the established JSON mode: each `{{directive}}` becomes a JSON value
 * (`identity.entity.name` → `"alice"`, `identity.entity.metadata` → an object,
 * `identity.entity.groups.names` → an array), so `{"user": {{identity.entity.name}}}` is JSON
 * once filled. Time directives (`time.now`, `time.now.plus.1h`) are Unix seconds.
 */
export function fillClaimsTemplate(template: string, facts: TemplateFacts): string {
  if (template === '') return '';
  const pieces = template.split('{{');
  if (pieces[0]?.includes('}}')) throw new TemplateError('unbalanced templating characters');
  let out = pieces[0] ?? '';
  for (const piece of pieces.slice(1)) {
    const parts = piece.split('}}');
    if (parts.length !== 2) throw new TemplateError('unbalanced templating characters');
    out += directive((parts[0] ?? '').trim(), facts) + (parts[1] ?? '');
  }
  return out;
}

const NOT_FOUND = 'no value could be found for one of the template directives';

/** A string, list or map as JSON; a map with a key as that key's value (`""` when absent). */
function json(value: string | readonly string[] | Readonly<Record<string, string>> | null, key?: string): string {
  if (typeof value === 'string' || Array.isArray(value)) return JSON.stringify(value);
  const map = (value ?? {}) as Readonly<Record<string, string>>;
  if (key === undefined) return JSON.stringify(map);
  return JSON.stringify(Object.hasOwn(map, key) ? map[key] : '');
}

function directive(text: string, facts: TemplateFacts): string {
  if (text.startsWith('identity.entity.')) {
    if (!facts.entity) throw new TemplateError('string contains entity template directives but no entity was provided');
    return entityDirective(text.slice('identity.entity.'.length), facts.entity, facts);
  }
  if (text.startsWith('identity.groups.')) {
    if (facts.groups.length === 0)
      throw new TemplateError('string contains groups template directives but no groups were provided');
    return groupDirective(text.slice('identity.groups.'.length), facts);
  }
  if (text.startsWith('time.')) return timeDirective(text.slice('time.'.length), facts.nowMs);
  throw new TemplateError(NOT_FOUND);
}

function entityDirective(text: string, entity: NonNullable<TemplateFacts['entity']>, facts: TemplateFacts): string {
  if (text === 'id') return json(entity.id);
  if (text === 'name') return json(entity.name);
  if (text === 'metadata') return json(entity.metadata);
  if (text.startsWith('metadata.')) return json(entity.metadata, text.slice('metadata.'.length));
  if (text === 'groups.names') return json(facts.groups.map((g) => g.name));
  if (text === 'groups.ids') return json(facts.groups.map((g) => g.id));
  if (text.startsWith('aliases.')) {
    const rest = text.slice('aliases.'.length);
    const dot = rest.indexOf('.');
    if (dot === -1) throw new TemplateError('invalid alias selector');
    const accessor = rest.slice(0, dot);
    // In JSON mode an alias the entity lacks reads as empty, not as an error.
    const alias = entity.aliases.find((a) => a.mount_accessor === accessor) ?? {
      id: '',
      name: '',
      mount_accessor: accessor,
      metadata: {},
      custom_metadata: {},
    };
    const field = rest.slice(dot + 1);
    if (field === 'id') return json(alias.id);
    if (field === 'name') return json(alias.name);
    if (field === 'metadata') return json(alias.metadata);
    if (field.startsWith('metadata.')) return json(alias.metadata, field.slice('metadata.'.length));
    if (field === 'custom_metadata') return json(alias.custom_metadata);
    if (field.startsWith('custom_metadata.'))
      return json(alias.custom_metadata, field.slice('custom_metadata.'.length));
  }
  throw new TemplateError(NOT_FOUND);
}

/** `identity.groups.ids.<id>.<field>` and `identity.groups.names.<name>.<field>`: bare text, as established. */
function groupDirective(text: string, facts: TemplateFacts): string {
  const [selector, rest = ''] = splitOnce(text);
  if (selector !== 'ids' && selector !== 'names') throw new TemplateError('invalid groups selector');
  const [wanted, field] = splitOnce(rest);
  if (field === undefined) throw new TemplateError('invalid groups accessor');
  const group = facts.groups.find((g) =>
    selector === 'ids' ? g.id === wanted : g.name === wanted && g.namespace_id === facts.namespaceId,
  );
  if (!group) throw new TemplateError(`entity is not a member of group "${wanted}"`);
  if (field === 'id') return group.id;
  if (field === 'name' && group.name !== '') return group.name;
  if (field.startsWith('metadata.')) {
    const key = field.slice('metadata.'.length);
    if (group.metadata && Object.hasOwn(group.metadata, key)) return group.metadata[key] ?? '';
  }
  throw new TemplateError(NOT_FOUND);
}

function timeDirective(text: string, nowMs: number): string {
  const parts = text.split('.');
  if (parts[0] !== 'now') throw new TemplateError(`invalid time selector "${parts[0]}"`);
  if (parts.length === 1) return String(Math.floor(nowMs / 1000));
  if (parts.length === 2) throw new TemplateError('missing time operand');
  let seconds: number;
  try {
    seconds = parseDurationSeconds(parts.slice(2).join('.'), 'time');
  } catch (err) {
    throw new TemplateError(`invalid duration: ${(err as Error).message}`);
  }
  if (parts[1] === 'plus') return String(Math.floor(nowMs / 1000) + seconds);
  if (parts[1] === 'minus') return String(Math.floor(nowMs / 1000) - seconds);
  throw new TemplateError(`invalid time operator "${parts[1]}"`);
}

function splitOnce(text: string): [string, string | undefined] {
  const dot = text.indexOf('.');
  return dot === -1 ? [text, undefined] : [text.slice(0, dot), text.slice(dot + 1)];
}

/** Claims no template may set: the token's own. */
export const RESERVED_CLAIMS = [
  'iat',
  'aud',
  'exp',
  'iss',
  'sub',
  'namespace',
  'nonce',
  'auth_time',
  'at_hash',
  'c_hash',
];

/**
 * Checks a template when it is configured, as established: base64 is decoded first, then it is
 * filled for an empty entity and must give a JSON object without reserved top-level claims.
 * Returns the template as stored (decoded). 400 otherwise.
 */
export function checkClaimsTemplate(raw: string): string {
  const template = decodeBase64Template(raw);
  if (template === '') return template;
  let filled: string;
  try {
    filled = fillClaimsTemplate(template, {
      entity: { id: '', name: '', metadata: null, aliases: [] },
      groups: [],
      namespaceId: '',
      nowMs: 0,
    });
  } catch (err) {
    throw new InvalidRequestError(`error parsing template: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(filled);
  } catch (err) {
    throw new InvalidRequestError(`error parsing template JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidRequestError('error parsing template JSON: the template must be a JSON object');
  for (const key of Object.keys(parsed))
    if (RESERVED_CLAIMS.includes(key))
      throw new InvalidRequestError(
        `top level key "${key}" not allowed. Restricted keys: ${RESERVED_CLAIMS.join(', ')}`,
      );
  return template;
}

/** Go's `base64.StdEncoding.DecodeString` succeeding means the template was sent in base64. */
function decodeBase64Template(raw: string): string {
  if (raw === '' || raw.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(raw)) return raw;
  return Buffer.from(raw, 'base64').toString('utf8');
}

/** Merges filled templates into `claims`, skipping reserved claims and templates that are not JSON objects. */
export function mergeClaims(claims: Record<string, unknown>, filled: readonly string[]): void {
  for (const text of filled) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) continue;
    for (const [key, value] of Object.entries(parsed)) if (!RESERVED_CLAIMS.includes(key)) setOwn(claims, key, value);
  }
}
