import { UnsupportedPathError } from '../../logical/errors.js';

/** One level of a role name: word characters, `-` and `.`, starting and ending with a word character. */
const SEGMENT = /^\w(?:[\w.-]*\w)?$/;

/**
 * A role name as stored: lower-cased (as established for every role path, so `Alice` and
 * `alice` are one role). Names may be hierarchical (`org/team/name`, as the established
 * engine allows), each level following the segment rule, so `a//b` or `a/../b` is no name.
 * A name outside the rule matches no path (404).
 */
export function roleName(raw: string): string {
  if (!raw.split('/').every((segment) => SEGMENT.test(segment))) throw new UnsupportedPathError();
  return raw.toLowerCase();
}

/** A LIST below the top level (`org/team/`): a role name followed by `/`, as stored (lower-cased). */
export function rolePrefix(raw: string): string {
  if (!raw.endsWith('/')) throw new UnsupportedPathError();
  return `${roleName(raw.slice(0, -1))}/`;
}

/** Every name under `prefix` of a storage listing, at any depth (`list` gives one level, folders ending in `/`). */
export async function listAllNames(list: (prefix: string) => Promise<string[]>, prefix = ''): Promise<string[]> {
  const names: string[] = [];
  for (const key of await list(prefix)) {
    if (key.endsWith('/')) names.push(...(await listAllNames(list, prefix + key)));
    else names.push(prefix + key);
  }
  return names;
}
