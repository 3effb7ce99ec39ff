import type { Namespace } from '../core/namespaces/namespace-store.js';
import type { SystemCore } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { NotFoundError } from '../logical/errors.js';

function view(ns: Namespace) {
  return { id: ns.id, path: ns.path, custom_metadata: ns.custom_metadata };
}

/** `sys/namespaces`, `sys/namespaces/:name`: the child namespaces of the current namespace. */
export function pathNamespaces(sys: SystemCore): PathDefinition[] {
  const find = (name: string) => {
    const ns = sys.namespaces.get(name.replace(/\/+$/, ''));
    if (!ns) throw new NotFoundError('');
    return ns;
  };
  return [
    definePath({
      pattern: 'namespaces/',
      fields: {},
      operations: {
        list: {
          summary: 'List the child namespaces.',
          handler: async () => {
            const children = sys.namespaces.children();
            const name = (ns: Namespace) => ns.path.slice(sys.namespace.path.length);
            return {
              data: {
                keys: children.map(name).sort(),
                key_info: Object.fromEntries(children.map((ns) => [name(ns), view(ns)])),
              },
            };
          },
        },
      },
      help: { synopsis: 'List child namespaces.', description: 'Keys end in `/`; `key_info` gives id and path.' },
    }),
    definePath({
      pattern: 'namespaces/:name',
      fields: {
        name: field.path({ description: 'Name of the child namespace (one path segment).' }),
        // Nullable so a merge patch can remove a key (`{"custom_metadata": {"team": null}}`).
        custom_metadata: field.nullableStringMap({
          description: 'Caller-defined string metadata; in a PATCH, `null` removes a key.',
        }),
      },
      existenceCheck: async ({ data }) => sys.namespaces.get(data.name) !== undefined,
      operations: {
        read: { summary: 'Read a child namespace.', handler: async ({ data }) => ({ data: view(find(data.name)) }) },
        create: {
          summary: 'Create a child namespace.',
          handler: async ({ data }) => ({
            data: view(await sys.namespaces.create(data.name, withoutNulls(data.custom_metadata))),
          }),
        },
        update: {
          summary: 'Replace the custom metadata of a namespace.',
          handler: async ({ data }) => {
            const ns = find(data.name);
            const clear = Object.fromEntries(Object.keys(ns.custom_metadata).map((k) => [k, null]));
            return { data: view(await sys.namespaces.patch(ns, { ...clear, ...withoutNulls(data.custom_metadata) })) };
          },
        },
        patch: {
          summary: 'Merge custom metadata into a namespace.',
          handler: async ({ data }) => ({
            data: view(await sys.namespaces.patch(find(data.name), data.custom_metadata ?? {})),
          }),
        },
        delete: {
          summary: 'Delete a namespace without children: revokes its tokens, removes its mounts and policies.',
          handler: async ({ data }) => {
            const ns = sys.namespaces.get(data.name);
            if (ns) await sys.namespaces.remove(ns);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Create, read, update or delete a child namespace.',
        description: 'Nested namespaces are created from inside their parent (header or path prefix).',
      },
    }),
  ];
}

/** Metadata to store as given: a `null` only means "remove" in a patch. */
function withoutNulls(metadata: Record<string, string | null> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata ?? {}).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}
