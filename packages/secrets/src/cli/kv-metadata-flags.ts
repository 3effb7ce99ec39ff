import { flag } from './command.js';
import { UsageError } from './flags.js';
import { intFlag, parsePairs } from './input.js';

/** The settings flags `kv metadata put` and `kv metadata patch` share. */
export const kvMetadataFlags = {
  'max-versions': flag.string('Versions kept (0 = the mount setting).'),
  'cas-required': flag.string('true: every write must give -cas.'),
  'delete-version-after': flag.duration('Versions are soft-deleted this long after writing (e.g. 720h; 0 = never).'),
  'custom-metadata': flag.list('K=V pair of custom metadata (repeatable).'),
};

/** The metadata body of the flags given; flags left out are left out of the body. */
export function kvMetadataSettings(flags: {
  'max-versions': string | undefined;
  'cas-required': string | undefined;
  'delete-version-after': string | undefined;
  'custom-metadata': string[];
}): Record<string, unknown> {
  const maxVersions = intFlag(flags['max-versions'], 'max-versions');
  const cas = flags['cas-required'];
  if (cas !== undefined && cas !== 'true' && cas !== 'false') throw new UsageError('-cas-required takes true or false');
  const custom = parsePairs(flags['custom-metadata'], 'custom-metadata');
  return {
    ...(maxVersions !== undefined ? { max_versions: maxVersions } : {}),
    ...(cas !== undefined ? { cas_required: cas === 'true' } : {}),
    ...(flags['delete-version-after'] !== undefined ? { delete_version_after: flags['delete-version-after'] } : {}),
    ...(custom ? { custom_metadata: custom } : {}),
  };
}
