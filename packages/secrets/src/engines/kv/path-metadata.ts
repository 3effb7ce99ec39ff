import { definePath, field, formatDuration } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import { validateCustomMetadata } from './custom-metadata.js';
import type { KvV2Deps } from './path-data.js';
import { effectiveMaxVersions, pruneVersions, requireValidMaxVersions } from './version-rules.js';
import { newMetadata } from './versioned-store.js';

const fields = {
  path: field.path({ description: 'Location of the secret, or a folder to list.' }),
  max_versions: field.int({ description: 'Versions to keep; 0 uses the mount setting.' }),
  cas_required: field.bool({ description: 'Require check-and-set on every write of this secret.' }),
  delete_version_after: field.durationSeconds({ description: 'Delete each new version after this long; 0 = never.' }),
  custom_metadata: field.stringMap({ description: 'Caller-defined string metadata of the secret.' }),
};

const SETTINGS = ['max_versions', 'cas_required', 'delete_version_after', 'custom_metadata'] as const;

/** `metadata/*path?`: a secret's metadata and version history, listing, and permanent deletion. */
export function pathMetadata(d: KvV2Deps) {
  return definePath({
    pattern: 'metadata/*path?',
    fields,
    existenceCheck: async ({ data }) => (await d.store.metadata(data.path)) !== undefined,
    operations: {
      read: {
        summary: 'Read the metadata and version history of a secret.',
        handler: async ({ data }) => {
          const meta = await d.store.metadata(data.path);
          if (!meta) throw new NotFoundError('');
          return { data: { ...meta, delete_version_after: formatDuration(meta.delete_version_after) } };
        },
      },
      list: {
        summary: 'List the secrets and folders below a path.',
        handler: async ({ data }) => {
          const keys = await d.store.list(data.path);
          if (keys.length === 0) throw new NotFoundError('');
          return { data: { keys } };
        },
      },
      create: {
        summary: 'Create or update the metadata of a secret.',
        handler: ({ data, supplied }) =>
          d.locks.run(data.path, async () => {
            // A write that names no setting changes nothing, and must not create an empty secret.
            if (!SETTINGS.some((name) => supplied.has(name))) return undefined;
            if (data.max_versions !== undefined) requireValidMaxVersions(data.max_versions);
            if (data.custom_metadata) validateCustomMetadata(data.custom_metadata);
            const config = await d.store.config();
            const meta = (await d.store.metadata(data.path)) ?? newMetadata(d.clock.now());
            if (supplied.has('max_versions')) meta.max_versions = data.max_versions ?? 0;
            if (supplied.has('cas_required')) meta.cas_required = data.cas_required ?? false;
            if (supplied.has('delete_version_after')) meta.delete_version_after = data.delete_version_after ?? 0;
            if (supplied.has('custom_metadata')) meta.custom_metadata = data.custom_metadata ?? null;
            const pruned = pruneVersions(meta, effectiveMaxVersions(meta, config));
            await d.store.putMetadata(data.path, meta);
            if (pruned.length > 0) await d.store.destroyData(data.path, pruned);
            if (data.cas_required === false && config.cas_required) {
              return {
                warnings: [
                  '"cas_required" set to false, but is mandated by backend config. This value will be ignored.',
                ],
              };
            }
            return undefined;
          }),
      },
      delete: {
        summary: 'Delete the secret, every version and its metadata, permanently.',
        handler: ({ data }) =>
          d.locks.run(data.path, async () => {
            const meta = await d.store.metadata(data.path);
            if (meta) await d.store.deleteAll(data.path, meta);
            return undefined;
          }),
      },
    },
    help: {
      synopsis: 'Configure a secret, read its version history, list secrets, delete permanently.',
      description: 'Metadata applies to every version of a secret. Deleting metadata destroys all versions.',
    },
  });
}
