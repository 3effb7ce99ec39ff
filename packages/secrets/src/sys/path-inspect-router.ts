/** `sys/internal/inspect/router/:tag`: what the router holds (`introspection_endpoint = true`). @module */
import { ROUTER_TAGS, type RouterRecord, type RouterTag } from '../core/router/router-records.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { UnsupportedPathError } from '../logical/errors.js';

/** Sudo paths of `sys/`: the router's tables name every mount's UUID, accessor and storage. */
export const INSPECT_ROOT_PATHS = ['internal/inspect/router/*'];

const TAGS: ReadonlySet<string> = new Set(ROUTER_TAGS);

/** `GET sys/internal/inspect/router/:tag`: `root`, `uuid`, `accessor` or `storage`; any other tag 404. */
export function pathInspectRouter(inspect: (tag: RouterTag) => RouterRecord[]): PathDefinition {
  return definePath({
    pattern: 'internal/inspect/router/:tag',
    fields: { tag: field.path({ description: 'The table: `root`, `uuid`, `accessor` or `storage`.' }) },
    operations: {
      read: {
        summary: 'The mounts the router holds, from one of its tables.',
        handler: async ({ data }) => {
          if (!TAGS.has(data.tag)) throw new UnsupportedPathError();
          const tag = data.tag as RouterTag;
          return { data: { [tag]: inspect(tag) } };
        },
      },
    },
    help: {
      synopsis: 'Expose the internal state of the router.',
      description:
        'Each mount the router holds (path, namespace, type, class, UUID, accessor, storage prefix), ' +
        'ordered by the key of the named table. Enabled by `introspection_endpoint = true`; sudo only.',
    },
  });
}
