import { definePath, field } from '../../framework/index.js';
import { setOwn } from '../../logical/own-entries.js';
import { findVersion, type KvV2Deps } from './path-data.js';

/** `subkeys/*path`: the shape of a secret without its values, for UIs and policy checks. */
export function pathSubkeys(d: KvV2Deps) {
  return definePath({
    pattern: 'subkeys/*path',
    fields: {
      path: field.path({ description: 'Location of the secret.' }),
      version: field.int({ description: 'Version to read; 0 or absent reads the latest.', default: 0 }),
      depth: field.int({ description: 'Deepest level to show; deeper maps read as leaves. 0 = no limit.', default: 0 }),
    },
    operations: {
      read: {
        summary: 'Read the keys of a secret with every leaf value replaced by null.',
        handler: async ({ data }) => {
          const found = await findVersion(d, data.path, data.version);
          if (!found.isLive) return { status: 404, data: { subkeys: null, metadata: found.metadata } };
          const secret = (await d.store.versionData(data.path, found.version)) ?? {};
          return { data: { subkeys: withoutValues(secret, data.depth, 1), metadata: found.metadata } };
        },
      },
    },
    help: {
      synopsis: 'Read the structure of a secret with its values removed.',
      description:
        'Leaves (values that are not maps, and empty maps) read as null. `depth` limits how many levels of ' +
        'nested maps are shown; maps at that level read as null too.',
    },
  });
}

function withoutValues(map: Record<string, unknown>, maxDepth: number, depth: number): Record<string, null | object> {
  const out: Record<string, null | object> = {};
  for (const [key, value] of Object.entries(map)) {
    const isNestedMap = typeof value === 'object' && value !== null && !Array.isArray(value);
    const shown = isNestedMap && Object.keys(value).length > 0 && (maxDepth === 0 || depth + 1 <= maxDepth);
    setOwn(out, key, shown ? withoutValues(value as Record<string, unknown>, maxDepth, depth + 1) : null);
  }
  return out;
}
