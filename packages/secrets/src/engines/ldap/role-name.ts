import { UnsupportedPathError } from '../../logical/errors.js';

/** Role names: word characters, `-` and `.`, starting and ending with a word character. */
const NAME = /^\w(?:[\w.-]*\w)?$/;

/**
 * A role name as stored: lower-cased (as established for every role path, so `Alice` and
 * `alice` are one role). A name outside the pattern matches no path (404).
 */
export function roleName(raw: string): string {
  if (!NAME.test(raw)) throw new UnsupportedPathError();
  return raw.toLowerCase();
}
