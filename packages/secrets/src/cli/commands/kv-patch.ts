import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { intFlag, parseDataArgs } from '../input.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv, showWrittenVersion } from '../kv-path.js';

/** `ward kv patch secret/foo k=v`: changes some keys of the latest version, keeping the others (KV v2). */
export const kvPatchCommand = defineCommand({
  name: 'kv patch',
  summary: 'Change some keys of a secret, keeping the others, as a new version (KV v2).',
  usage: 'PATH K=V ... | PATH -',
  example: 'ward kv patch secret/app password=rotated',
  flags: {
    mount: KV_MOUNT_FLAG,
    cas: flag.string('Check-and-set: patch only if the current version is this.'),
  },
  args: { min: 2 },
  async run({ flags, args: [path = '', ...pairs] }, ctx) {
    const data = await parseDataArgs(pairs, ctx);
    if (Object.keys(data).length === 0) throw new UsageError('must supply data');
    const target = await resolveKv(ctx.client, path, flags.mount);
    requireKvV2(target);
    const cas = intFlag(flags.cas, 'cas');
    const secret = await target.kv.v2.patch(target.key, data, cas === undefined ? {} : { cas });
    showWrittenVersion(ctx.out, target, secret);
    return undefined;
  },
});
