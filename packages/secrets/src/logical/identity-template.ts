/** One alias of the caller's entity (its name at one auth mount), as templates see it. */
export interface AliasFacts {
  id?: string;
  name: string;
  mount_accessor: string;
  metadata?: Readonly<Record<string, string>> | null;
}

/**
 * What an identity template (ACL paths, PKI `allowed_domains_template`) may refer to about the
 * caller's identity. The core hands it to backends as `Caller.entity`.
 */
export interface EntityFacts {
  id: string;
  name?: string;
  metadata?: Readonly<Record<string, string>> | null;
  aliases?: readonly AliasFacts[];
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** Whether `text` holds a `{{…}}` placeholder. */
export function isTemplate(text: string): boolean {
  return /\{\{[^{}]+\}\}/.test(text);
}

/**
 * Fills `{{identity.entity.id}}`, `{{identity.entity.name}}`,
 * `{{identity.entity.metadata.<key>}}` and `{{identity.entity.aliases.<mount accessor>.id|name|metadata.<key>}}`
 * in a rule's path (or a PKI role's allowed domain). `undefined` when there is no
 * entity or any placeholder has no value: the rule then grants nothing, rather than
 * matching a path with an empty segment that could belong to someone else.
 */
export function fillTemplate(path: string, entity: EntityFacts | undefined): string | undefined {
  if (!entity) return undefined;
  let isComplete = true;
  const filled = path.replace(PLACEHOLDER, (_, expression: string) => {
    const value = resolve(expression, entity);
    if (value === undefined || value === '') isComplete = false;
    return value ?? '';
  });
  return isComplete ? filled : undefined;
}

function resolve(expression: string, entity: EntityFacts): string | undefined {
  if (expression === 'identity.entity.id') return entity.id;
  if (expression === 'identity.entity.name') return entity.name;
  const metadataPrefix = 'identity.entity.metadata.';
  if (expression.startsWith(metadataPrefix)) return ownValue(entity.metadata, expression.slice(metadataPrefix.length));
  const aliasPrefix = 'identity.entity.aliases.';
  if (!expression.startsWith(aliasPrefix)) return undefined;
  const rest = expression.slice(aliasPrefix.length);
  const dot = rest.indexOf('.');
  if (dot <= 0) return undefined;
  const alias = entity.aliases?.find((a) => a.mount_accessor === rest.slice(0, dot));
  if (!alias) return undefined;
  const field = rest.slice(dot + 1);
  if (field === 'name') return alias.name;
  if (field === 'id') return alias.id;
  if (field.startsWith('metadata.')) return ownValue(alias.metadata, field.slice('metadata.'.length));
  return undefined;
}

function ownValue(map: Readonly<Record<string, string>> | null | undefined, key: string): string | undefined {
  return map && Object.hasOwn(map, key) ? map[key] : undefined;
}
