import { CliError, defineCommand } from '../command.js';
import { parseDataArgs } from '../input.js';

/** `ward read PATH [K=V ...]`: any GET; the pairs become the query string. */
export const readCommand = defineCommand({
  name: 'read',
  summary: 'Read data at any API path.',
  usage: 'PATH [K=V ...]',
  example: 'ward read sys/mounts',
  flags: {},
  args: { min: 1 },
  async run({ args: [path = '', ...pairs] }, ctx) {
    const query = Object.fromEntries(Object.entries(await parseDataArgs(pairs, ctx)).map(([k, v]) => [k, String(v)]));
    const secret = await ctx.client.read(path, pairs.length > 0 ? query : undefined);
    if (!secret) throw new CliError(`No value found at ${path}`, 2);
    ctx.out.secret(secret);
    return undefined;
  },
});
