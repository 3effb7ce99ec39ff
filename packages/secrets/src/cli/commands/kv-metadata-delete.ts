import { defineCommand } from '../command.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv metadata delete secret/foo`: removes every version and the metadata (KV v2 only). */
export const kvMetadataDeleteCommand = defineCommand({
  name: 'kv metadata delete',
  summary: 'Delete every version and the metadata of a KV v2 secret.',
  usage: 'PATH',
  example: 'ward kv metadata delete secret/app',
  flags: { mount: KV_MOUNT_FLAG },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    await target.kv.v2.deleteMetadata(target.key);
    out.success(`Data deleted (if it existed) at: ${target.apiPath('metadata')}`);
    return undefined;
  },
});
