import type { PathDefinition } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { mappingPaths } from '../common/index.js';
import { type OktaMapping, oktaStore } from './okta-store.js';

/**
 * A group's mapping: by its exact name, else (as established) by a case-insensitive match,
 * since Okta group names keep the case an administrator gave them.
 */
export async function groupMapping(storage: Storage, name: string): Promise<OktaMapping | undefined> {
  const exact = await oktaStore.mapping(storage, 'groups', name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const key of await oktaStore.mappings(storage, 'groups'))
    if (key.toLowerCase() === lower) return oktaStore.mapping(storage, 'groups', key);
  return undefined;
}

/** `users/:name`, `groups/:name` and their listings; names are kept as given. */
export function pathMappings(): PathDefinition[] {
  return mappingPaths({
    store: oktaStore,
    kinds: ['users', 'groups'],
    fold: (_storage, name) => name,
    describeName: (kind) => `The Okta ${kind === 'users' ? 'username' : 'group name'}.`,
    localGroupsDescription: 'Groups the user is in here besides Okta’s.',
    help: (kind) => ({
      synopsis: `Policies of an Okta ${kind.slice(0, -1)}.`,
      description:
        kind === 'groups'
          ? 'Looked up by the Okta group name, exactly or else ignoring case.'
          : 'Policies and local groups of one Okta user.',
    }),
  });
}
