import { defineCommand, flag } from '../command.js';
import { mountRows } from '../mount-flags.js';

/** `ward secrets list`: the mounted secrets engines. */
export const secretsListCommand = defineCommand({
  name: 'secrets list',
  summary: 'List the enabled secrets engines.',
  usage: '',
  example: 'ward secrets list -detailed',
  flags: { detailed: flag.bool('Also show TTLs and options.') },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, out }) {
    const mounts = await client.sys.mounts.list();
    const { headers, rows } = mountRows(mounts, flags.detailed);
    out.rows(headers, rows, mounts);
    return undefined;
  },
});
