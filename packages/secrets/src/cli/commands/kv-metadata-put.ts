import { defineCommand } from '../command.js';
import { kvMetadataFlags, kvMetadataSettings } from '../kv-metadata-flags.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv metadata put -max-versions=5 secret/foo`: a key's settings (KV v2). */
export const kvMetadataPutCommand = defineCommand({
  name: 'kv metadata put',
  summary: "Set a secret's settings: versions kept, check-and-set, expiry, custom metadata (KV v2).",
  usage: 'PATH',
  example: 'ward kv metadata put -max-versions=5 -custom-metadata=owner=ops secret/app',
  flags: { mount: KV_MOUNT_FLAG, ...kvMetadataFlags },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const settings = kvMetadataSettings(flags);
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    await target.kv.v2.writeMetadata(target.key, settings);
    out.success(`Data written to: ${target.apiPath('metadata')}`);
    return undefined;
  },
});
