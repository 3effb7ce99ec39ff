import { CliError, defineCommand, flag } from '../command.js';
import { intFlag } from '../input.js';
import { KV_MOUNT_FLAG, resolveKv } from '../kv-path.js';

/** `ward kv get secret/foo`: reads `secret/data/foo` on a v2 mount, `secret/foo` on v1. */
export const kvGetCommand = defineCommand({
  name: 'kv get',
  summary: 'Read a secret from a KV mount (version 1 or 2).',
  usage: 'PATH',
  example: 'ward kv get -field=password secret/app',
  flags: {
    mount: KV_MOUNT_FLAG,
    version: flag.string('Version to read (KV v2).'),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const target = await resolveKv(client, path, flags.mount);
    if (target.version === 1) {
      const secret = await target.kv.v1.get(target.key);
      if (!secret) throw new CliError(`No value found at ${target.apiPath()}`, 2);
      out.secret(secret);
      return undefined;
    }
    const version = intFlag(flags.version, 'version');
    const secret = await target.kv.v2.get(target.key, version === undefined ? {} : { version });
    // With -wrap-ttl the answer holds no data, only the wrapping token.
    if (secret?.wrap_info) {
      out.secret(secret);
      return undefined;
    }
    if (!secret?.data) throw new CliError(`No value found at ${target.apiPath()}`, 2);
    if (secret.data.data === null) {
      throw new CliError(
        `No value found at ${target.apiPath()}: version ${secret.data.metadata.version} is deleted`,
        2,
      );
    }
    out.section('Secret Path');
    out.note(`${target.apiPath()}\n`);
    out.section('Metadata', { ...secret.data.metadata });
    out.section('Data');
    out.fields(secret.data.data, secret);
    return undefined;
  },
});
