import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { TOKEN_AUTH_ENTRY } from '../router/builtin-entries.js';
import { applyTuning, type MountEntry, type MountTuning } from '../router/mount-table.js';
import { type Namespace, ROOT_NAMESPACE } from './namespace-store.js';

/** What `sys/auth/token/tune` may change on the built-in token method, as stored. */
type TokenMountTuning = Pick<MountEntry, 'description' | 'config'>;

/** Below `namespaces/<id>/` outside root, so deleting a namespace erases its tuning too. */
function storageKey(ns: Namespace): string {
  return ns === ROOT_NAMESPACE ? 'core/token-mount' : `namespaces/${ns.id}/core/token-mount`;
}

/**
 * A namespace's `auth/token/` mount entry: the built-in one with what `sys/auth/token/tune` stored.
 * The entry is shared with the token backend's system view, which reads its TTLs from it.
 */
export async function loadTokenMount(storage: Storage, ns: Namespace): Promise<MountEntry> {
  const tuned = await getJson<TokenMountTuning>(storage, storageKey(ns));
  return { ...TOKEN_AUTH_ENTRY, ...(tuned && { description: tuned.description, config: tuned.config }) };
}

/** Tunes the token method of `ns` in place and stores the result. `token_type` is not the caller's to set. */
export async function tuneTokenMount(storage: Storage, ns: Namespace, entry: MountEntry, change: MountTuning) {
  applyTuning(entry, { description: change.description, config: change.config });
  await putJson(storage, storageKey(ns), { description: entry.description, config: entry.config });
}
