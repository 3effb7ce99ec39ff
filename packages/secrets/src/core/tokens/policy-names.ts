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
