import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { intFlag, parsePairs } from '../input.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv metadata put -max-versions=5 secret/foo`: a key's settings (KV v2). */
export const kvMetadataPutCommand = defineCommand({
  name: 'kv metadata put',
  summary: "Set a secret's settings: versions kept, check-and-set, expiry, custom metadata (KV v2).",
  usage: 'PATH',
  example: 'ward kv metadata put -max-versions=5 -custom-metadata=owner=ops secret/app',
  flags: {
    mount: KV_MOUNT_FLAG,
    'max-versions': flag.string('Versions kept (0 = the mount setting).'),
    'cas-required': flag.string('true: every write must give -cas.'),
    'delete-version-after': flag.duration('Versions are soft-deleted this long after writing (e.g. 720h; 0 = never).'),
    'custom-metadata': flag.list('K=V pair of custom metadata (repeatable).'),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const maxVersions = intFlag(flags['max-versions'], 'max-versions');
    const cas = flags['cas-required'];
    if (cas !== undefined && cas !== 'true' && cas !== 'false')
      throw new UsageError('-cas-required takes true or false');
    const custom = parsePairs(flags['custom-metadata'], 'custom-metadata');
    const settings = {
      ...(maxVersions !== undefined ? { max_versions: maxVersions } : {}),
      ...(cas !== undefined ? { cas_required: cas === 'true' } : {}),
      ...(flags['delete-version-after'] !== undefined ? { delete_version_after: flags['delete-version-after'] } : {}),
      ...(custom ? { custom_metadata: custom } : {}),
    };
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    await target.kv.v2.writeMetadata(target.key, settings);
    out.success(`Data written to: ${target.apiPath('metadata')}`);
    return undefined;
  },
});
