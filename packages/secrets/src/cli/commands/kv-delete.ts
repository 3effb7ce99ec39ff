import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { KV_MOUNT_FLAG, parseVersions, resolveKv } from '../kv-path.js';

/** `ward kv delete secret/foo`: soft-deletes the latest (or `-versions`) on v2; deletes on v1. */
export const kvDeleteCommand = defineCommand({
  name: 'kv delete',
  summary: 'Delete a secret (KV v2: the latest version, or -versions, can be undeleted).',
  usage: 'PATH',
  example: 'ward kv delete -versions=2 secret/app',
  flags: {
    mount: KV_MOUNT_FLAG,
    versions: flag.string('Comma-separated versions to delete (KV v2).'),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const target = await resolveKv(client, path, flags.mount);
    if (target.version === 1) {
      if (flags.versions !== undefined) throw new UsageError('-versions needs a KV version 2 mount');
      await target.kv.v1.delete(target.key);
    } else {
      await target.kv.v2.delete(target.key, parseVersions(flags.versions, false));
    }
    out.success(`Data deleted (if it existed) at: ${target.apiPath()}`);
    return undefined;
  },
});
