import { CliError, defineCommand, flag } from '../command.js';
import { resolveKv } from '../kv-path.js';

/** `ward kv list secret/`: LIST on `secret/metadata/` (v2) or `secret/` (v1). */
export const kvListCommand = defineCommand({
  name: 'kv list',
  summary: 'List the keys below a path of a KV mount.',
  usage: 'PATH',
  example: 'ward kv list secret/',
  flags: { mount: flag.string('Mount path of the engine; PATH is then the folder below it.') },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const target = await resolveKv(client, path, flags.mount);
    const keys = target.version === 2 ? await target.kv.v2.list(target.key) : await target.kv.v1.list(target.key);
    if (keys.length === 0) throw new CliError(`No value found at ${target.apiPath('metadata')}`, 2);
    out.keys(keys);
    return undefined;
  },
});
