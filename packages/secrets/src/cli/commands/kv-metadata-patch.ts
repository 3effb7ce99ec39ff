import { defineCommand } from '../command.js';
import { kvMetadataFlags, kvMetadataSettings } from '../kv-metadata-flags.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv metadata patch -max-versions=5 secret/foo`: changes only the settings given (KV v2). */
export const kvMetadataPatchCommand = defineCommand({
  name: 'kv metadata patch',
  summary: "Change some of a secret's settings, keeping the others (KV v2).",
  usage: 'PATH',
  example: 'ward kv metadata patch -custom-metadata=owner=ops secret/app',
  flags: { mount: KV_MOUNT_FLAG, ...kvMetadataFlags },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const settings = kvMetadataSettings(flags);
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    await client.patch(target.apiPath('metadata'), settings);
    out.success(`Data written to: ${target.apiPath('metadata')}`);
    return undefined;
  },
});
