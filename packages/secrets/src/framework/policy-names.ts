/**
 * Trimmed, lower-cased, deduplicated and sorted policy names, with `default` added when
 * asked; `root` swallows every other policy (a root token has exactly `['root']`).
 */
export function sanitizePolicies(policies: readonly string[], addDefault = false): string[] {
  const names = new Set(policies.map((p) => p.trim().toLowerCase()).filter((p) => p !== ''));
  if (names.has('root')) return ['root'];
  if (addDefault) names.add('default');
  return [...names].sort();
}

/** Whether two policy lists grant the same, ignoring `default`, order and duplicates (case matters, as established). */
export function equivalentPolicies(a: readonly string[], b: readonly string[]): boolean {
  const set = (list: readonly string[]) => new Set(list.filter((p) => p !== 'default'));
  const left = set(a);
  const right = set(b);
  return left.size === right.size && [...left].every((p) => right.has(p));
}
