import { definePath, KeyedMutex } from '../../framework/index.js';
import type { GoogleClientCache } from '../../google/client-cache.js';
import { rotateOwnKey } from '../../google/service-account-keys.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { endpointsOf, gcpStore } from './gcp-store.js';

/** `config/rotate-root`: a new key for the method's own account, stored, and the old key deleted. */
export function pathConfigRotateRoot(clients: GoogleClientCache) {
  const lock = new KeyedMutex();
  return definePath({
    pattern: 'config/rotate-root',
    fields: {},
    operations: {
      update: {
        summary: 'Replace the method’s key with a new one of the same account and delete the old one.',
        handler: async ({ storage }) =>
          lock.run('config', async () => {
            const config = await gcpStore.config(storage);
            if (!config.credentials)
              throw new InvalidRequestError('configuration does not have credentials: nothing to rotate');
            const next = await rotateOwnKey(
              config.credentials,
              (credentials) => clients.apis(credentials, endpointsOf(config)),
              (credentials) => gcpStore.putConfig(storage, { ...config, credentials }),
            );
            return { data: { private_key_id: next.private_key_id } };
          }),
      },
    },
    help: {
      synopsis: 'Rotate the method’s own key.',
      description:
        'Needs iam.serviceAccountKeys.create and .delete on the account; the new key is stored before the old one is deleted.',
    },
  });
}
