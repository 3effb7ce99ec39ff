import { FakeClock, SeededRandom } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import { InmemStorage } from '../../storage/index.js';
import { TokenStore, type TokenStoreHooks } from './token-store.js';
import type { MountTtls } from './token-ttl.js';

/** The system defaults: 768h default and max. */
export const SYSTEM_TTLS: MountTtls = { defaultTtlSeconds: 2_764_800, maxTtlSeconds: 2_764_800 };

/** A set-up token store over in-memory storage, a fake clock and seeded randomness, with a root token. */
export async function createTestTokenStore(hooks?: TokenStoreHooks) {
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  const storage = new InmemStorage();
  const random = new SeededRandom('tokens');
  const store = new TokenStore({ storage, random, clock, hooks });
  await store.setup();
  const root = await store.createRoot();
  return { store, clock, storage, random, root };
}

/** Every key and value below `prefix`, depth first. */
export async function dumpStorage(storage: Storage, prefix = ''): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const child of await storage.list(prefix)) {
    const key = `${prefix}${child}`;
    if (child.endsWith('/')) out.push(...(await dumpStorage(storage, key)));
    else out.push([key, Buffer.from((await storage.get(key)) ?? []).toString('latin1')]);
  }
  return out;
}
