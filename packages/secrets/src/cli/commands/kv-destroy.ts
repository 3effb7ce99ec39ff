import { defineCommand, flag } from '../command.js';
import { KV_MOUNT_FLAG, parseVersions, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv destroy -versions=1 secret/foo`: erases versions for good (KV v2). */
export const kvDestroyCommand = defineCommand({
  name: 'kv destroy',
  summary: 'Erase versions of a secret for good; they cannot be undeleted (KV v2).',
  usage: 'PATH',
  example: 'ward kv destroy -versions=1 secret/app',
  flags: { mount: KV_MOUNT_FLAG, versions: flag.string('Comma-separated versions to destroy (required).') },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const versions = parseVersions(flags.versions, true) as number[];
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    await target.kv.v2.destroy(target.key, versions);
    out.success(`Data written to: ${target.apiPath('destroy')}`);
    return undefined;
  },
});
