import { definePath } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import type { AppRoleDeps } from './deps.js';
import { isExpired } from './secret-id-store.js';

/** Deletes expired secret ids and those of roles that no longer exist; answers how many went. */
export async function tidySecretIds(d: AppRoleDeps, storage: Storage): Promise<number> {
  let removed = 0;
  for (const roleName of await d.secretIds.roles(storage)) {
    const isRoleGone = (await d.roles.get(storage, roleName)) === undefined;
    for (const found of await d.secretIds.all(storage, roleName)) {
      if (!isRoleGone && !isExpired(found.record, d.clock.now())) continue;
      await d.secretIds.delete(storage, found);
      removed++;
    }
  }
  return removed;
}

/** `tidy/secret-id`: remove expired secret ids. */
export function pathTidySecretId(d: AppRoleDeps) {
  return definePath({
    pattern: 'tidy/secret-id',
    fields: {},
    operations: {
      update: {
        summary: 'Delete expired secret ids and their accessors.',
        handler: async ({ storage }) => {
          const removed = await tidySecretIds(d, storage);
          // 202 as established (where tidying runs in the background); here it has finished.
          return { status: 202, data: null, warnings: [`Tidy operation finished: ${removed} secret IDs removed.`] };
        },
      },
    },
    help: {
      synopsis: 'Tidy up secret ids.',
      description: 'Logins already refuse expired secret ids; tidying reclaims their storage.',
    },
  });
}
