import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { intFlag, parseDataArgs } from '../input.js';
import { KV_MOUNT_FLAG, resolveKv, showWrittenVersion } from '../kv-path.js';

/** `ward kv put secret/foo k=v …`: a new version on v2 (optionally check-and-set), a replace on v1. */
export const kvPutCommand = defineCommand({
  name: 'kv put',
  summary: 'Write a secret to a KV mount; K=@file reads a file, - reads JSON from stdin.',
  usage: 'PATH K=V ... | PATH -',
  example: 'ward kv put secret/app password=s3cret user=ops',
  flags: {
    mount: KV_MOUNT_FLAG,
    cas: flag.string('Check-and-set: write only if the current version is this (0 = only if new). KV v2.'),
  },
  args: { min: 2 },
  async run({ flags, args: [path = '', ...pairs] }, ctx) {
    const data = await parseDataArgs(pairs, ctx);
    if (Object.keys(data).length === 0) throw new UsageError('must supply data');
    const target = await resolveKv(ctx.client, path, flags.mount);
    if (target.version === 1) {
      await target.kv.v1.put(target.key, data);
      ctx.out.success(`Data written to: ${target.apiPath()}`);
      return undefined;
    }
    const cas = intFlag(flags.cas, 'cas');
    const secret = await target.kv.v2.put(target.key, data, cas === undefined ? {} : { cas });
    showWrittenVersion(ctx.out, target, secret);
    return undefined;
  },
});
