import type { Random } from '@ward/base';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { unbindAndDropKey } from './account-setup.js';
import { gcpCloud } from './cloud.js';
import type { GcpEngineDeps } from './deps.js';
import type { Bindings, TokenKey } from './gcp-store.js';

/** How often the leftovers are retried. */
export const CLEANUP_INTERVAL_MS = 60_000;

/**
 * What a replaced account left in Google Cloud when removing it failed: its bindings, its token
 * key and, for a roleset's account, the account itself. Kept (encrypted) and retried until gone,
 * so a failed rotation never leaves an old account holding its roles.
 */
export interface Leftover {
  service_account_email: string;
  bindings: Bindings;
  token_key?: TokenKey;
  delete_account: boolean;
  error: string;
}

const PREFIX = 'cleanup/';

export async function queueLeftover(storage: Storage, random: Random, leftover: Leftover): Promise<void> {
  const id = Buffer.from(random.bytes(12)).toString('hex');
  await putJson(storage, `${PREFIX}${id}`, leftover);
}

/** Removes what a leftover names: bindings, token key, then (if its own) the account. */
export async function removeLeftover(d: GcpEngineDeps, storage: Storage, l: Omit<Leftover, 'error'>): Promise<void> {
  const apis = await d.apis(storage);
  await unbindAndDropKey(apis, l.service_account_email, l.bindings, l.token_key);
  if (l.delete_account) await gcpCloud.deleteAccount(apis, l.service_account_email);
}

/** One pass over the queue: each leftover removed is dropped from it, the others wait for the next. */
export async function retryLeftovers(d: GcpEngineDeps, storage: Storage): Promise<void> {
  for (const id of await storage.list(PREFIX)) {
    const leftover = await getJson<Leftover>(storage, `${PREFIX}${id}`);
    if (!leftover) continue;
    try {
      await removeLeftover(d, storage, leftover);
      await storage.delete(`${PREFIX}${id}`);
    } catch (err) {
      await putJson(storage, `${PREFIX}${id}`, { ...leftover, error: (err as Error).message });
    }
  }
}
