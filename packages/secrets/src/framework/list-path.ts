import type { Storage } from '../logical/storage.js';
import { definePath, type PathDefinition } from './path.js';

/**
 * A LIST-only path (`roles/`, `role/`) answering the names `names` finds in the mount's storage;
 * the framework turns an empty list into a 404, as established servers answer. `what` names the
 * things listed in the summary and help ("roles").
 */
export function listPath(
  pattern: string,
  names: (storage: Storage) => Promise<string[]>,
  what = 'roles',
): PathDefinition {
  return definePath({
    pattern,
    fields: {},
    operations: {
      list: {
        summary: `List the ${what}.`,
        handler: async ({ storage }) => ({ data: { keys: await names(storage) } }),
      },
    },
    help: { synopsis: `List the ${what}.`, description: '404 when there are none.' },
  });
}
