import type { ManagedKeyRef, ManagedKeySigner } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { MountEntry } from './mount-table.js';

/** A managed key found for a namespace, with the setting that decides which mounts may use it. */
export type FoundManagedKey = ManagedKeySigner & { anyMount: boolean };

/**
 * Finds a managed key of a namespace, from the composition root (the keys live in `sys/`,
 * which the core does not import). `undefined` when there is none.
 */
export type ManagedKeyLookup = (namespaceId: string, ref: ManagedKeyRef) => Promise<FoundManagedKey | undefined>;

/**
 * `SystemView.managedKey` of one mount: the key if it has `any_mount` or the mount lists it in
 * `allowed_managed_keys`. The entry's config is read at each call, so a tune applies at once.
 */
export function managedKeyAccess(lookup: ManagedKeyLookup | undefined, entry: MountEntry) {
  return async (ref: ManagedKeyRef): Promise<ManagedKeySigner> => {
    const described = 'name' in ref ? `"${ref.name}"` : `with id "${ref.id}"`;
    const key = await lookup?.(entry.namespace_id ?? 'root', ref);
    if (!key) throw new InvalidRequestError(`no managed key ${described}`);
    if (!key.anyMount && !(entry.config.allowed_managed_keys ?? []).includes(key.name))
      throw new InvalidRequestError(
        `managed key "${key.name}" is not in the allowed_managed_keys of mount ${entry.path}`,
      );
    return key;
  };
}
