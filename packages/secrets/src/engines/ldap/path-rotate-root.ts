import { definePath, type PathDefinition } from '../../framework/index.js';
import { configStore } from './config-store.js';
import { newPassword } from './passwords.js';
import { type RotationDeps, reload, requireConfig } from './static-rotation.js';

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
            // Saved first: from here on every bind can find the new password, whatever happens next.
            await configStore.put(d.storage, { ...config, pending_bindpass: password });
            await d.pool.use(config, reload(d.storage), (directory) =>
              directory.setPassword({ dn: config.binddn }, password),
            );
            const current = (await configStore.get(d.storage)) ?? config;
            await configStore.put(d.storage, {
              ...current,
              bindpass: password,
              pending_bindpass: '',
              last_bindpass: config.bindpass,
              last_bind_password_rotation_ms: now,
            });
            // Connections bound with the replaced password stay bound (the directory keeps the
            // session), so requests under way finish; none is reused from here on.
            d.pool.drop();
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
