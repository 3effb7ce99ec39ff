/** What a policy template may refer to about the caller's identity. */
export interface EntityFacts {
  id: string;
  name?: string;
  metadata?: Readonly<Record<string, string>>;
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/**
 * Fills `{{identity.entity.id}}`, `{{identity.entity.name}}` and
 * `{{identity.entity.metadata.<key>}}` in a rule's path. `undefined` when there is no
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
  if (expression.startsWith(metadataPrefix)) return entity.metadata?.[expression.slice(metadataPrefix.length)];
  return undefined;
}
