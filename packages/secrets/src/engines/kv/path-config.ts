import { formatDurationSeconds } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import type { KvV2Deps } from './path-data.js';
import { requireValidMaxVersions } from './version-rules.js';

/** `config`: mount-wide KV v2 settings. */
export function pathConfig(d: KvV2Deps) {
  return definePath({
    pattern: 'config',
    fields: {
      max_versions: field.int({ description: 'Versions kept per secret; 0 means 10.' }),
      cas_required: field.bool({ description: 'Require check-and-set on every write.' }),
      delete_version_after: field.durationSeconds({ description: 'Delete each version after this long; 0 = never.' }),
    },
    operations: {
      read: {
        summary: 'Read the mount settings.',
        handler: async () => {
          const c = await d.store.config();
          return {
            data: {
              cas_required: c.cas_required,
              delete_version_after: formatDurationSeconds(c.delete_version_after),
              max_versions: c.max_versions,
            },
          };
        },
      },
      update: {
        summary: 'Change the mount settings.',
        handler: async ({ data, supplied }) => {
          const c = await d.store.config();
          if (data.max_versions !== undefined) c.max_versions = requireValidMaxVersions(data.max_versions);
          if (supplied.has('cas_required')) c.cas_required = data.cas_required ?? false;
          if (supplied.has('delete_version_after')) c.delete_version_after = data.delete_version_after ?? 0;
          await d.store.putConfig(c);
          return undefined;
        },
      },
    },
    help: { synopsis: 'Configure the KV mount.', description: 'Settings apply to secrets without their own.' },
  });
}
