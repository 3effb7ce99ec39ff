import { defineCommand, flag } from '../command.js';
import { mountRows } from '../mount-flags.js';

/** `ward auth list`: the enabled auth methods (`token/` is always there). */
export const authListCommand = defineCommand({
  name: 'auth list',
  summary: 'List the enabled auth methods.',
  usage: '',
  example: 'ward auth list -detailed',
  flags: { detailed: flag.bool('Also show TTLs and options.') },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, out }) {
    const mounts = await client.sys.auth.list();
    const { headers, rows } = mountRows(mounts, flags.detailed);
    out.rows(headers, rows, mounts);
    return undefined;
  },
});
