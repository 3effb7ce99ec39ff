import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { parseDataArgs } from '../input.js';

/** `ward write PATH K=V ... | -`: any PUT; `K=@file` reads a file, `-` a JSON object from stdin. */
export const writeCommand = defineCommand({
  name: 'write',
  summary: 'Write data to any API path.',
  usage: 'PATH [K=V ... | -]',
  example: 'ward write sys/policies/acl/app policy=@app.hcl',
  flags: {
    force: flag.bool('Allow writing without any data.'),
    f: flag.bool('Short for -force, as established.'),
  },
  args: { min: 1 },
  async run({ flags, args: [path = '', ...pairs] }, ctx) {
    if (pairs.length === 0 && !flags.force && !flags.f) throw new UsageError('must supply data or use -force');
    const secret = await ctx.client.write(path, await parseDataArgs(pairs, ctx));
    if (secret && (secret.data || secret.auth)) {
      if (secret.auth) ctx.out.auth(secret);
      else ctx.out.secret(secret);
    } else ctx.out.success(`Data written to: ${path}`);
    return undefined;
  },
});
