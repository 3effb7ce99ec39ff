/** One alias of the caller's entity (its name at one auth mount), as templates see it. */
export interface AliasFacts {
  id?: string;
  name: string;
  mount_accessor: string;
  metadata?: Readonly<Record<string, string>> | null;
  custom_metadata?: Readonly<Record<string, string>> | null;
}

/** One group the caller's entity is in (directly or through a parent group), as templates see it. */
export interface GroupFacts {
  id: string;
  name: string;
  namespace_id?: string;
  metadata?: Readonly<Record<string, string>> | null;
}

/**
 * What an identity template (ACL paths, PKI `allowed_domains_template`, the SSH engine's role
 * templates, OIDC claims templates) may refer to about the caller's identity. The core hands it
 * to backends as `Caller.entity`.
 */
export interface EntityFacts {
  id: string;
  name?: string;
  metadata?: Readonly<Record<string, string>> | null;
  aliases?: readonly AliasFacts[];
  /** Direct and inherited groups; the core may compute them only when read. */
  readonly groups?: readonly GroupFacts[];
}

/**
 * How directives are filled, as established: `acl` gives text only (ACL paths, role fields:
 * an empty or absent value has none), `json` gives JSON values (claims templates: whole maps
 * and lists, `""` for an absent metadata key or alias).
 */
export type TemplateMode = 'acl' | 'json';

/** One directive's value; `isBare` text goes into JSON output unquoted (group directives, as established). */
export type DirectiveValue =
  | { kind: 'text'; value: string; isBare: boolean }
  | { kind: 'list'; value: readonly string[] }
  | { kind: 'map'; value: Readonly<Record<string, string>> }
  | { kind: 'missing'; reason: string };

/** What one directive is filled from. */
export interface DirectiveContext {
  mode: TemplateMode;
  entity: EntityFacts | undefined;
  /** The entity's groups (default: `entity.groups`). */
  groups?: readonly GroupFacts[];
  /** Groups named in `identity.groups.names.<name>` must be of this namespace, when given. */
  namespaceId?: string;
}

const NO_VALUE = 'no value could be found for one of the template directives';
const missing = (reason: string): DirectiveValue => ({ kind: 'missing', reason });
const text = (value: string | undefined, isBare = false): DirectiveValue =>
  value === undefined ? missing(NO_VALUE) : { kind: 'text', value, isBare };

/**
 * The value of one `identity.entity.*` or `identity.groups.*` directive (the text between the
 * braces, trimmed): `identity.entity.id|name|metadata[.<key>]|groups.names|groups.ids`,
 * `identity.entity.aliases.<mount accessor>.id|name|metadata[.<key>]|custom_metadata[.<key>]`,
 * `identity.groups.ids.<group id>.id|name|metadata.<key>`,
 * `identity.groups.names.<group name>.id|name|metadata.<key>`.
 */
export function resolveDirective(expression: string, c: DirectiveContext): DirectiveValue {
  if (expression.startsWith('identity.entity.')) {
    if (!c.entity) return missing('string contains entity template directives but no entity was provided');
    return entityValue(expression.slice('identity.entity.'.length), c.entity, c);
  }
  if (expression.startsWith('identity.groups.')) {
    const groups = c.groups ?? c.entity?.groups ?? [];
    if (groups.length === 0) return missing('string contains groups template directives but no groups were provided');
    return groupValue(expression.slice('identity.groups.'.length), groups, c.namespaceId);
  }
  return missing(NO_VALUE);
}

/** A field of a metadata map: in json mode the whole map, or `""` for an absent key. */
function mapValue(
  map: Readonly<Record<string, string>> | null | undefined,
  key: string | undefined,
  mode: TemplateMode,
): DirectiveValue {
  if (key === undefined) return mode === 'json' ? { kind: 'map', value: map ?? {} } : missing(NO_VALUE);
  if (map && Object.hasOwn(map, key)) return text(map[key]);
  return mode === 'json' ? text('') : missing(NO_VALUE);
}

/** `metadata` → the map, `metadata.<key>` → that key, anything else → `null`. */
function metadataKey(selector: string, name: string): { key: string | undefined } | null {
  if (selector === name) return { key: undefined };
  return selector.startsWith(`${name}.`) ? { key: selector.slice(name.length + 1) } : null;
}

function entityValue(selector: string, entity: EntityFacts, c: DirectiveContext): DirectiveValue {
  if (selector === 'id') return text(entity.id);
  if (selector === 'name') return text(entity.name);
  const metadata = metadataKey(selector, 'metadata');
  if (metadata) return mapValue(entity.metadata, metadata.key, c.mode);
  const groups = c.groups ?? entity.groups ?? [];
  if (selector === 'groups.names' || selector === 'groups.ids') {
    if (c.mode !== 'json') return missing(NO_VALUE);
    return { kind: 'list', value: groups.map((g) => (selector === 'groups.ids' ? g.id : g.name)) };
  }
  if (!selector.startsWith('aliases.')) return missing(NO_VALUE);
  const [accessor, field] = splitOnce(selector.slice('aliases.'.length));
  if (field === undefined) return missing('invalid alias selector');
  const found = entity.aliases?.find((a) => a.mount_accessor === accessor);
  if (!found && c.mode === 'acl') return missing('alias not found');
  // In json mode an alias the entity lacks reads as empty.
  const alias: AliasFacts = found ?? { id: '', name: '', mount_accessor: accessor };
  if (field === 'id') return text(alias.id ?? '');
  if (field === 'name') return text(alias.name);
  const aliasMetadata = metadataKey(field, 'metadata');
  if (aliasMetadata) return mapValue(alias.metadata, aliasMetadata.key, c.mode);
  const custom = metadataKey(field, 'custom_metadata');
  if (custom) return mapValue(alias.custom_metadata, custom.key, c.mode);
  return missing(NO_VALUE);
}

/** `ids.<id>.<field>` or `names.<name>.<field>`, of a group the entity is in; bare text, as established. */
function groupValue(selector: string, groups: readonly GroupFacts[], namespaceId: string | undefined): DirectiveValue {
  const [by, rest] = splitOnce(selector);
  if ((by !== 'ids' && by !== 'names') || rest === undefined) return missing('invalid groups selector');
  const [wanted, field] = splitOnce(rest);
  if (field === undefined) return missing('invalid groups accessor');
  const group = groups.find((g) =>
    by === 'ids' ? g.id === wanted : g.name === wanted && (namespaceId === undefined || g.namespace_id === namespaceId),
  );
  if (!group) return missing(`entity is not a member of group "${wanted}"`);
  if (field === 'id') return text(group.id, true);
  if (field === 'name') return group.name === '' ? missing(NO_VALUE) : text(group.name, true);
  const metadata = metadataKey(field, 'metadata');
  if (metadata?.key !== undefined && group.metadata && Object.hasOwn(group.metadata, metadata.key))
    return text(group.metadata[metadata.key], true);
  return missing(NO_VALUE);
}

/** `a.b.c` → `['a', 'b.c']`; `a` → `['a', undefined]`. */
function splitOnce(value: string): [string, string | undefined] {
  const dot = value.indexOf('.');
  return dot === -1 ? [value, undefined] : [value.slice(0, dot), value.slice(dot + 1)];
}

/** How a template is filled in acl mode. */
export interface FillOptions {
  /**
   * A substituted value holding any of these makes the template unfillable: an SSH role's
   * comma-separated principals must not gain entries from an entity's name.
   */
  blocked?: readonly string[];
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** Whether `text` holds a `{{…}}` placeholder. */
export function isTemplate(value: string): boolean {
  return /\{\{[^{}]+\}\}/.test(value);
}

/**
 * Fills the directives of a rule's path, a PKI role's allowed domain or an SSH role's principal
 * in acl mode (see `resolveDirective`). `undefined` when there is no entity, any directive has no
 * value (or an empty or blocked one), or the braces do not pair: the rule then grants nothing,
 * rather than matching a path with an empty segment that could belong to someone else.
 */
export function fillTemplate(
  template: string,
  entity: EntityFacts | undefined,
  options: FillOptions = {},
): string | undefined {
  if (!entity || !hasPairedBraces(template)) return undefined;
  let isComplete = true;
  const filled = template.replace(PLACEHOLDER, (_, expression: string) => {
    const r = resolveDirective(expression, { mode: 'acl', entity });
    const value = r.kind === 'text' ? r.value : '';
    if (value === '' || options.blocked?.some((b) => value.includes(b))) isComplete = false;
    return value;
  });
  return isComplete ? filled : undefined;
}

/** Each `{{` closed by one `}}` before the next opens, and no stray `}}`, as established. */
function hasPairedBraces(template: string): boolean {
  const pieces = template.split('{{');
  if (pieces[0]?.includes('}}')) return false;
  return pieces.slice(1).every((piece) => piece.split('}}').length === 2);
}
