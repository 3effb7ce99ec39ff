import { CliError, defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { intFlag } from '../input.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv, showWrittenVersion } from '../kv-path.js';

/**
 * `ward kv rollback -version=2 secret/foo`: writes an older version's data as the newest version,
 * guarded by check-and-set so a concurrent write is not overwritten (KV v2).
 */
export const kvRollbackCommand = defineCommand({
  name: 'kv rollback',
  summary: "Make an older version's data the newest version (KV v2).",
  usage: 'PATH',
  example: 'ward kv rollback -version=2 secret/app',
  flags: { mount: KV_MOUNT_FLAG, version: flag.string('The version to roll back to (required).') },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const version = intFlag(flags.version, 'version');
    if (!version) throw new UsageError('-version=N is required (N ≥ 1)');
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    const metadata = await target.kv.v2.readMetadata(target.key);
    const current = metadata?.data?.current_version;
    if (!current) throw new CliError(`No value found at ${target.apiPath()}`, 2);
    const old = await target.kv.v2.get(target.key, { version });
    if (!old?.data?.data) {
      throw new CliError(`cannot roll back to version ${version}: it is deleted, destroyed or does not exist`, 2);
    }
    const secret = await target.kv.v2.put(target.key, old.data.data, { cas: current });
    showWrittenVersion(out, target, secret);
    return undefined;
  },
});
