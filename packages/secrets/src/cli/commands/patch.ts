import { defineCommand } from '../command.js';
import { UsageError } from '../flags.js';
import { parseDataArgs } from '../input.js';

/** `ward patch PATH K=V ...`: a JSON merge patch to any path, as established. */
export const patchCommand = defineCommand({
  name: 'patch',
  summary: 'Change some fields at any API path (JSON merge patch), keeping the others.',
  usage: 'PATH [K=V ... | -]',
  example: 'ward patch auth/userpass/users/ops token_ttl=1h',
  flags: {},
  args: { min: 1 },
  async run({ args: [path = '', ...pairs] }, ctx) {
    if (pairs.length === 0) throw new UsageError('must supply data');
    const secret = await ctx.client.patch(path, await parseDataArgs(pairs, ctx));
    if (secret?.data) ctx.out.secret(secret);
    else ctx.out.success(`Data written to: ${path}`);
    return undefined;
  },
});
