import { defineCommand } from '../command.js';
import { parseDataArgs } from '../input.js';

/** `ward delete PATH [K=V ...]`: any DELETE. */
export const deleteCommand = defineCommand({
  name: 'delete',
  summary: 'Delete data at any API path.',
  usage: 'PATH [K=V ...]',
  example: 'ward delete secret/data/app',
  flags: {},
  args: { min: 1 },
  async run({ args: [path = '', ...pairs] }, ctx) {
    const query = Object.fromEntries(Object.entries(await parseDataArgs(pairs, ctx)).map(([k, v]) => [k, String(v)]));
    const secret = await ctx.client.delete(path, pairs.length > 0 ? query : undefined);
    if (secret?.data) ctx.out.secret(secret);
    else ctx.out.success(`Data deleted (if it existed) at: ${path}`);
    return undefined;
  },
});
