import { formatDurationSeconds } from '@ward/base';
import type { KvMetadata } from '@ward/secrets-client';
import { definePath, field, type HandlerContext } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import { setOwn } from '../../logical/own-entries.js';
import type { LogicalResponse } from '../../logical/response.js';
import { validateCustomMetadata } from './custom-metadata.js';
import type { KvV2Deps } from './path-data.js';
import { effectiveMaxVersions, pruneVersions, requireValidMaxVersions } from './version-rules.js';
import { type KeyMetadata, newMetadata } from './versioned-store.js';

const fields = {
  path: field.path({ description: 'Location of the secret, or a folder to list.' }),
  max_versions: field.int({ description: 'Versions to keep; 0 uses the mount setting.' }),
  cas_required: field.bool({ description: 'Require check-and-set on every write of this secret.' }),
  delete_version_after: field.durationSeconds({ description: 'Delete each new version after this long; 0 = never.' }),
  custom_metadata: field.nullableStringMap({
    description: 'Caller-defined string metadata of the secret. In a PATCH, a null value removes that key.',
  }),
};

type MetadataContext = HandlerContext<typeof fields>;

const SETTINGS = ['max_versions', 'cas_required', 'delete_version_after', 'custom_metadata'] as const;

/** `metadata/*path?`: a secret's metadata and version history, listing, and permanent deletion. */
export function pathMetadata(d: KvV2Deps) {
  return definePath({
    pattern: 'metadata/*path?',
    fields,
    existenceCheck: async ({ data }) => (await d.store.frozenMetadata(data.path)) !== undefined,
    operations: {
      read: {
        summary: 'Read the metadata and version history of a secret.',
        handler: async ({ data }) => {
          const meta = await d.store.metadata(data.path);
          if (!meta) throw new NotFoundError('');
          return {
            data: {
              ...meta,
              delete_version_after: formatDurationSeconds(meta.delete_version_after),
            } satisfies KvMetadata,
          };
        },
      },
      list: {
        summary: 'List the secrets and folders below a path.',
        handler: async ({ data }) => {
          const keys = await d.store.list(data.path);
          return { data: { keys } };
        },
      },
      create: {
        summary: 'Create or update the metadata of a secret; settings not named keep their value.',
        handler: (ctx) => writeSettings(d, ctx, 'replace'),
      },
      patch: {
        summary: 'Change the named settings of existing metadata, merging `custom_metadata` key by key.',
        handler: (ctx) => writeSettings(d, ctx, 'merge'),
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

/**
 * A metadata write (`replace`: creates the metadata if needed, `custom_metadata` replaced
 * whole) or patch (`merge`: the metadata must exist, `custom_metadata` merged, null removes).
 */
function writeSettings(
  d: KvV2Deps,
  { data, supplied }: MetadataContext,
  mode: 'replace' | 'merge',
): Promise<LogicalResponse | undefined> {
  return d.locks.run(data.path, async () => {
    // A write that names no setting changes nothing, and must not create an empty secret.
    if (!SETTINGS.some((name) => supplied.has(name))) return undefined;
    if (data.max_versions !== undefined) requireValidMaxVersions(data.max_versions);
    const existing = await d.store.metadata(data.path);
    if (!existing && mode === 'merge') throw new NotFoundError('');
    const meta = existing ?? newMetadata(d.clock.nowPrecise());
    if (data.custom_metadata) {
      meta.custom_metadata = mergeCustomMetadata(meta.custom_metadata, data.custom_metadata, mode);
      validateCustomMetadata(meta.custom_metadata);
    }
    if (data.max_versions !== undefined) meta.max_versions = data.max_versions;
    if (data.cas_required !== undefined) meta.cas_required = data.cas_required;
    if (data.delete_version_after !== undefined) meta.delete_version_after = data.delete_version_after;
    return saveSettings(d, data.path, meta, data.cas_required);
  });
}

/**
 * `changes` over `base`. In a merge a null value removes its key; in a plain write it is
 * an empty value, which validation then refuses, as established servers do.
 */
function mergeCustomMetadata(
  base: Record<string, string> | null,
  changes: Record<string, string | null>,
  mode: 'replace' | 'merge',
): Record<string, string> {
  const out: Record<string, string> = mode === 'merge' && base !== null ? { ...base } : {};
  for (const [key, value] of Object.entries(changes)) {
    if (value !== null) setOwn(out, key, value);
    else if (mode === 'merge') delete out[key];
    else setOwn(out, key, '');
  }
  return out;
}

async function saveSettings(
  d: KvV2Deps,
  path: string,
  meta: KeyMetadata,
  casRequired: boolean | undefined,
): Promise<LogicalResponse | undefined> {
  const config = await d.store.config();
  const pruned = pruneVersions(meta, effectiveMaxVersions(meta, config));
  await d.store.putMetadata(path, meta);
  if (pruned.length > 0) await d.store.destroyData(path, pruned);
  if (casRequired === false && config.cas_required) {
    return {
      warnings: ['"cas_required" set to false, but is mandated by backend config. This value will be ignored.'],
    };
  }
  return undefined;
}
