import { UnsupportedPathError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** A stored user: the bcrypt hash (never returned) and its token settings. */
export interface UserRecord {
  password_hash: string;
  token: TokenParams;
}

/**
 * The spec's username characters: letters, digits, `_`, `-`, `.`, never starting with `-`
 * or `.`; as established, never ending with them either (a captured value ending in `.`
 * matches no path anyway).
 */
const USERNAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

/** The stored form of a username: lower case (names are case-insensitive). A bad name matches no path (404). */
export function normalizeUsername(name: string): string {
  if (!USERNAME.test(name)) throw new UnsupportedPathError();
  return name.toLowerCase();
}

/** Users under `user/<lower-cased name>` of the mount's storage. */
export const userStore = {
  get: (storage: Storage, name: string) => getJson<UserRecord>(storage, `user/${name}`),
  put: (storage: Storage, name: string, user: UserRecord) => putJson(storage, `user/${name}`, user),
  delete: (storage: Storage, name: string) => storage.delete(`user/${name}`),
  list: (storage: Storage) => storage.list('user/'),
};
