import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { librarySets } from './library-store.js';
import { staticRoles } from './static-role-store.js';

/** The one key of the mutex under which the engine's managed usernames change. */
export const MANAGED_ACCOUNTS = 'managed-accounts';

/**
 * Refuses any of `usernames` that a static role or a library set already manages: the engine
 * manages an account in one place only, or two rotations would fight over its password (as
 * established). `exceptSet`: the set being updated (its own accounts are not a conflict).
 * Callers hold the `MANAGED_ACCOUNTS` lock, so two writes cannot both take the same account.
 */
export async function refuseManaged(storage: Storage, usernames: string[], exceptSet?: string): Promise<void> {
  const managed = new Set<string>();
  for (const role of await staticRoles.listAll(storage)) {
    const username = (await staticRoles.get(storage, role))?.username;
    if (username !== undefined) managed.add(username);
  }
  for (const name of await librarySets.listAll(storage)) {
    if (name === exceptSet) continue;
    for (const account of (await librarySets.get(storage, name))?.service_account_names ?? []) managed.add(account);
  }
  const taken = usernames.find((username) => managed.has(username));
  if (taken !== undefined) throw new InvalidRequestError(`"${taken}" is already managed by the secrets engine`);
}
