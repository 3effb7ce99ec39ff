import { defineCommand, flag } from '../command.js';
import { KV_MOUNT_FLAG, parseVersions, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv undelete -versions=3 secret/foo`: restores soft-deleted versions (KV v2). */
export const kvUndeleteCommand = defineCommand({
  name: 'kv undelete',
  summary: 'Restore soft-deleted versions of a secret (KV v2).',
  usage: 'PATH',
  example: 'ward kv undelete -versions=3,4 secret/app',
  flags: { mount: KV_MOUNT_FLAG, versions: flag.string('Comma-separated versions to restore (required).') },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const versions = parseVersions(flags.versions, true) as number[];
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    await target.kv.v2.undelete(target.key, versions);
    out.success(`Data written to: ${target.apiPath('undelete')}`);
    return undefined;
  },
});
