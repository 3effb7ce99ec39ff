import { definePath } from '../../framework/index.js';
import type { TokenBackendDeps } from './deps.js';

/** `accessors/` (LIST, sudo): every service token's accessor. */
export function pathAccessors(d: TokenBackendDeps) {
  return definePath({
    pattern: 'accessors/',
    fields: {},
    operations: {
      list: {
        summary: 'List token accessors.',
        handler: async () => ({ data: { keys: await d.store.listAccessors() } }),
      },
    },
    help: {
      synopsis: 'List token accessors.',
      description: 'Lists the accessor of every service token (batch tokens have none). Needs sudo.',
    },
  });
}
