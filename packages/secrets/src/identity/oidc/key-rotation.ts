import type { Clock, Logger, Random } from '@ward/base';
import type { PeriodicTask } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { oidcStore } from './oidc-store.js';
import { rotateKey } from './path-oidc-keys.js';

/** How often keys are looked at: the shortest `rotation_period` allowed is a minute. */
export const KEY_ROTATION_CHECK_MS = 60_000;

/**
 * One pass over the named keys: each key whose `next_rotation_ms` has come is rotated (the old
 * generation keeps verifying for `verification_ttl`), and generations whose verification time
 * is over leave the published key set. A key without key material yet (the `default` key
 * before a client or role uses it) is left alone.
 */
export async function rotateDueKeys(storage: Storage, d: { clock: Clock; random: Random; logger: Logger }) {
  const now = d.clock.now();
  for (const name of await oidcStore.keys(storage)) {
    const key = await oidcStore.key(storage, name);
    if (!key?.generations[0]?.private) continue;
    if (key.next_rotation_ms === undefined) {
      await oidcStore.putKey(storage, name, { ...key, next_rotation_ms: now + key.rotation_period * 1000 });
      continue;
    }
    if (now >= key.next_rotation_ms) {
      d.logger.debug('rotating OIDC key', { key: name });
      await rotateKey(storage, name, key, d);
      continue;
    }
    const kept = key.generations.filter((g, i) => i === 0 || g.expires_at_ms > now);
    if (kept.length !== key.generations.length) await oidcStore.putKey(storage, name, { ...key, generations: kept });
  }
}

/** The scheduler's task for `rotateDueKeys`, run by the core on the active server while unsealed. */
export function keyRotationTask(storage: Storage, d: { clock: Clock; random: Random; logger: Logger }): PeriodicTask {
  return { name: 'oidc-key-rotation', intervalMs: KEY_ROTATION_CHECK_MS, run: () => rotateDueKeys(storage, d) };
}
