import { parseDurationSeconds } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { resolveDirective } from '../../logical/identity-template.js';
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

function directive(text: string, facts: TemplateFacts): string {
  if (text.startsWith('time.')) return timeDirective(text.slice('time.'.length), facts.nowMs);
  const r = resolveDirective(text, {
    mode: 'json',
    entity: facts.entity,
    groups: facts.groups,
    namespaceId: facts.namespaceId,
  });
  if (r.kind === 'missing') throw new TemplateError(r.reason);
  return r.kind === 'text' && r.isBare ? r.value : JSON.stringify(r.value);
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
