import { CliError, defineCommand } from '../command.js';

/** `ward list PATH`: the LIST verb on any API path. */
export const listCommand = defineCommand({
  name: 'list',
  summary: 'List the keys below any API path.',
  usage: 'PATH',
  example: 'ward list secret/metadata/',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [path = ''] }, { client, out }) {
    const secret = await client.list(path);
    const keys = secret?.data?.keys;
    if (!secret || !Array.isArray(keys)) throw new CliError(`No value found at ${path}`, 2);
    out.keys(keys);
    return undefined;
  },
});
