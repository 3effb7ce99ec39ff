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
  metadata?: Readonly<Record<string, string>> | null;
}

/**
 * What an identity template (ACL paths, PKI `allowed_domains_template`, the SSH engine's role
 * templates) may refer to about the caller's identity. The core hands it to backends as
 * `Caller.entity`.
 */
export interface EntityFacts {
  id: string;
  name?: string;
  metadata?: Readonly<Record<string, string>> | null;
  aliases?: readonly AliasFacts[];
  /** Direct and inherited groups; the core may compute them only when read. */
  readonly groups?: readonly GroupFacts[];
}

/** How a template is filled. */
export interface FillOptions {
  /**
   * A substituted value holding any of these makes the template unfillable: an SSH role's
   * comma-separated principals must not gain entries from an entity's name.
   */
  blocked?: readonly string[];
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** Whether `text` holds a `{{…}}` placeholder. */
export function isTemplate(text: string): boolean {
  return /\{\{[^{}]+\}\}/.test(text);
}

/**
 * Fills `{{identity.entity.id}}`, `{{identity.entity.name}}`,
 * `{{identity.entity.metadata.<key>}}`,
 * `{{identity.entity.aliases.<mount accessor>.id|name|metadata.<key>|custom_metadata.<key>}}`,
 * `{{identity.groups.ids.<group id>.id|name|metadata.<key>}}` and
 * `{{identity.groups.names.<group name>.id|name|metadata.<key>}}` in a rule's path, a PKI role's
 * allowed domain or an SSH role's principal. `undefined` when there is no entity, any
 * placeholder has no value (or a blocked one), or the braces do not pair: the rule then grants
 * nothing, rather than matching a path with an empty segment that could belong to someone else.
 */
export function fillTemplate(
  text: string,
  entity: EntityFacts | undefined,
  options: FillOptions = {},
): string | undefined {
  if (!entity || !hasPairedBraces(text)) return undefined;
  let isComplete = true;
  const filled = text.replace(PLACEHOLDER, (_, expression: string) => {
    const value = resolve(expression, entity);
    if (value === undefined || value === '' || options.blocked?.some((b) => value.includes(b))) isComplete = false;
    return value ?? '';
  });
  return isComplete ? filled : undefined;
}

/** Each `{{` closed by one `}}` before the next opens, and no stray `}}`, as established. */
function hasPairedBraces(text: string): boolean {
  const pieces = text.split('{{');
  if (pieces[0]?.includes('}}')) return false;
  return pieces.slice(1).every((piece) => piece.split('}}').length === 2);
}

function resolve(expression: string, entity: EntityFacts): string | undefined {
  const entityPrefix = 'identity.entity.';
  if (expression.startsWith(entityPrefix)) return entityValue(expression.slice(entityPrefix.length), entity);
  const groupsPrefix = 'identity.groups.';
  if (expression.startsWith(groupsPrefix)) return groupValue(expression.slice(groupsPrefix.length), entity);
  return undefined;
}

function entityValue(selector: string, entity: EntityFacts): string | undefined {
  if (selector === 'id') return entity.id;
  if (selector === 'name') return entity.name;
  if (selector.startsWith('metadata.')) return ownValue(entity.metadata, selector.slice('metadata.'.length));
  if (!selector.startsWith('aliases.')) return undefined;
  const [accessor, field] = splitOnce(selector.slice('aliases.'.length));
  const alias = entity.aliases?.find((a) => a.mount_accessor === accessor);
  if (!alias || field === undefined) return undefined;
  if (field === 'name') return alias.name;
  if (field === 'id') return alias.id;
  if (field.startsWith('metadata.')) return ownValue(alias.metadata, field.slice('metadata.'.length));
  if (field.startsWith('custom_metadata.'))
    return ownValue(alias.custom_metadata, field.slice('custom_metadata.'.length));
  return undefined;
}

/** `ids.<id>.<field>` or `names.<name>.<field>`, of a group the entity is in. */
function groupValue(selector: string, entity: EntityFacts): string | undefined {
  const [by, rest] = splitOnce(selector);
  if ((by !== 'ids' && by !== 'names') || rest === undefined) return undefined;
  const [key, field] = splitOnce(rest);
  if (field === undefined) return undefined;
  const group = entity.groups?.find((g) => (by === 'ids' ? g.id : g.name) === key);
  if (!group) return undefined;
  if (field === 'id') return group.id;
  if (field === 'name') return group.name;
  if (field.startsWith('metadata.')) return ownValue(group.metadata, field.slice('metadata.'.length));
  return undefined;
}

/** `a.b.c` → `['a', 'b.c']`; `a` → `['a', undefined]`. */
function splitOnce(text: string): [string, string | undefined] {
  const dot = text.indexOf('.');
  return dot === -1 ? [text, undefined] : [text.slice(0, dot), text.slice(dot + 1)];
}

function ownValue(map: Readonly<Record<string, string>> | null | undefined, key: string): string | undefined {
  return map && Object.hasOwn(map, key) ? map[key] : undefined;
}
