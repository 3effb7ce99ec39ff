import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { AppRoleDeps } from './deps.js';
import { roleFields } from './role-fields.js';
import { normalizeRoleName } from './role-store.js';
import { secretIdReadData } from './secret-id-issue.js';
import { type FoundSecretId, isExpired } from './secret-id-store.js';

const role_name = roleFields.role_name;
const secret_id = field.string({ description: 'The secret id.' });
const secret_id_accessor = field.string({ description: 'Accessor of the secret id.' });

/** The secret id if it is still valid; an expired one is deleted on the way, as established. */
async function liveSecretId(
  d: AppRoleDeps,
  storage: Storage,
  found: FoundSecretId | undefined,
): Promise<FoundSecretId | undefined> {
  if (!found) return undefined;
  if (!isExpired(found.record, d.clock.now())) return found;
  await d.secretIds.delete(storage, found);
  return undefined;
}

/** `role/:role_name/secret-id/lookup` and `.../destroy`: a secret id by its value. */
export function pathSecretIdLookup(d: AppRoleDeps) {
  const bySecretId = async (storage: Storage, roleName: string, secretId: string | undefined, destroy: boolean) => {
    if (!secretId) throw new InvalidRequestError('missing secret_id');
    const name = normalizeRoleName(roleName);
    return d.secretIds.locked(name, secretId, async (key) => {
      const record = await d.secretIds.get(storage, key);
      const found = await liveSecretId(d, storage, record ? { key, record } : undefined);
      if (found && destroy) await d.secretIds.delete(storage, found);
      return found;
    });
  };
  return [
    definePath({
      pattern: 'role/:role_name/secret-id/lookup',
      fields: { role_name, secret_id },
      operations: {
        update: {
          summary: 'Read a secret id’s properties (nothing, 204, when it does not exist).',
          handler: async ({ storage, data }) => {
            const found = await bySecretId(storage, data.role_name, data.secret_id, false);
            return found ? { data: secretIdReadData(found.record) } : undefined;
          },
        },
      },
      help: { synopsis: 'Look up a secret id.', description: 'The secret id itself is never shown.' },
    }),
    definePath({
      pattern: 'role/:role_name/secret-id/destroy',
      fields: { role_name, secret_id },
      operations: {
        update: {
          summary: 'Destroy a secret id (204 whether or not it existed).',
          handler: async ({ storage, data }) => {
            await bySecretId(storage, data.role_name, data.secret_id, true);
            return undefined;
          },
        },
      },
      help: { synopsis: 'Destroy a secret id.', description: 'Tokens it logged in stay valid.' },
    }),
  ];
}

/** `role/:role_name/secret-id-accessor/lookup` and `.../destroy`: a secret id by its accessor. */
export function pathSecretIdAccessor(d: AppRoleDeps) {
  const byAccessor = async (storage: Storage, roleName: string, accessor: string | undefined, destroy: boolean) => {
    if (!accessor) throw new InvalidRequestError('missing secret_id_accessor');
    return d.secretIds.lockedByAccessor(storage, normalizeRoleName(roleName), accessor, async (entry) => {
      const found = await liveSecretId(d, storage, entry);
      if (!found) throw new InvalidRequestError(`failed to find accessor entry for secret_id_accessor: "${accessor}"`);
      if (destroy) await d.secretIds.delete(storage, found);
      return found;
    });
  };
  return [
    definePath({
      pattern: 'role/:role_name/secret-id-accessor/lookup',
      fields: { role_name, secret_id_accessor },
      operations: {
        update: {
          summary: 'Read a secret id’s properties by its accessor.',
          handler: async ({ storage, data }) => {
            const found = await byAccessor(storage, data.role_name, data.secret_id_accessor, false);
            return { data: secretIdReadData(found.record) };
          },
        },
      },
      help: { synopsis: 'Look up a secret id by accessor.', description: 'For operators who never saw the id.' },
    }),
    definePath({
      pattern: 'role/:role_name/secret-id-accessor/destroy',
      fields: { role_name, secret_id_accessor },
      operations: {
        update: {
          summary: 'Destroy a secret id by its accessor.',
          handler: async ({ storage, data }) => {
            await byAccessor(storage, data.role_name, data.secret_id_accessor, true);
            return undefined;
          },
        },
      },
      help: { synopsis: 'Destroy a secret id by accessor.', description: 'Tokens it logged in stay valid.' },
    }),
  ];
}
