import type { PeriodicTask } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import type { TransitDeps } from './deps.js';
import { rotateHeldKey } from './key-creation.js';
import { isManaged, transitKeys } from './key-store.js';

const CHECK_INTERVAL_MS = 60_000;

/** Rotates each key whose latest version is older than its `auto_rotate_period`, as established. */
export function autoRotation(d: TransitDeps, storage: Storage, nowMs: () => number): PeriodicTask {
  return {
    name: 'transit auto-rotation',
    intervalMs: CHECK_INTERVAL_MS,
    run: async () => {
      for (const name of await transitKeys.list(storage)) {
        await d.locks.run(name, async () => {
          const entry = await transitKeys.get(storage, name);
          if (!entry || isManaged(entry) || entry.auto_rotate_period === 0) return;
          if (entry.imported_key && !entry.allow_imported_key_rotation) return;
          const latest = entry.versions[String(entry.latest_version)];
          if (!latest || Date.parse(latest.creation_time) + entry.auto_rotate_period * 1000 > nowMs()) return;
          rotateHeldKey(d, entry);
          await transitKeys.put(storage, name, entry);
        });
      }
    },
  };
}
