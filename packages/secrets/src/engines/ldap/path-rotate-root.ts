import { definePath, type PathDefinition } from '../../framework/index.js';
import { configStore } from './config-store.js';
import { openDirectory } from './directory.js';
import { newPassword } from './passwords.js';
import { type RotationDeps, requireConfig } from './static-rotation.js';

/** The lock key of the bind password: rotate-root runs one at a time. */
const ROOT_LOCK = '\0rotate-root';

/**
 * `rotate-root`: replaces the bind password with one only the engine knows. Requests that
 * bind while it runs still work: they use the stored password until the new one is saved,
 * and the replaced one stays valid for binds (tried second) for 10 minutes.
 */
export function pathRotateRoot(d: RotationDeps): PathDefinition {
  return definePath({
    pattern: 'rotate-root',
    fields: {},
    operations: {
      update: {
        summary: 'Rotate the bind password.',
        handler: async () => {
          await d.locks.run(ROOT_LOCK, async () => {
            const config = await requireConfig(d.storage);
            const password = await newPassword(config, d.random, d.system);
            const now = d.clock.now();
            const reload = () => configStore.get(d.storage);
            // Saved first: from here on every bind can find the new password, whatever happens next.
            await configStore.put(d.storage, { ...config, pending_bindpass: password });
            const directory = await openDirectory(config, now, reload);
            try {
              await directory.setPassword({ dn: config.binddn }, password);
            } finally {
              await directory.close();
            }
            const current = (await reload()) ?? config;
            await configStore.put(d.storage, {
              ...current,
              bindpass: password,
              pending_bindpass: '',
              last_bindpass: config.bindpass,
              last_bind_password_rotation_ms: now,
            });
          });
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Rotate the bind password.',
      description: 'The new password is stored and never returned.',
    },
  });
}
