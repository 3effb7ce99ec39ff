import type { Storage } from '../../logical/storage.js';
import { awsAuthStore, type TidyKind } from './aws-auth-store.js';

/**
 * Deletes access-list entries (instances' nonces) or deny-listed tags whose expiry lies more
 * than `bufferSeconds` in the past; returns how many went.
 */
export async function tidy(storage: Storage, kind: TidyKind, bufferSeconds: number, nowMs: number): Promise<number> {
  const cutoff = nowMs - bufferSeconds * 1000;
  let removed = 0;
  if (kind === 'identity-accesslist') {
    for (const id of await awsAuthStore.accessList(storage)) {
      const entry = await awsAuthStore.accessListEntry(storage, id);
      if (entry && entry.expiration_time_ms < cutoff) {
        await awsAuthStore.deleteAccessListEntry(storage, id);
        removed++;
      }
    }
    return removed;
  }
  for (const key of await awsAuthStore.denyList(storage)) {
    const entry = await awsAuthStore.denyListed(storage, key);
    if (entry && entry.expiration_time_ms < cutoff) {
      await awsAuthStore.deleteDenyListed(storage, key);
      removed++;
    }
  }
  return removed;
}

/** The hourly tidy of both lists, each unless its `config/tidy` disables it. */
export async function periodicTidy(storage: Storage, nowMs: number): Promise<void> {
  for (const kind of ['identity-accesslist', 'roletag-denylist'] as const) {
    const config = await awsAuthStore.tidyConfig(storage, kind);
    if (!config.disable_periodic_tidy) await tidy(storage, kind, config.safety_buffer, nowMs);
  }
}
