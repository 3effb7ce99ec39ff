import { CliError, defineCommand } from '../command.js';

/** `ward namespace list`: the child namespaces of the current one. */
export const namespaceListCommand = defineCommand({
  name: 'namespace list',
  summary: 'List the child namespaces of the current one.',
  usage: '',
  example: 'ward namespace list',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    const result = await client.sys.namespaces.list();
    if (result.keys.length === 0) throw new CliError('No namespaces found', 2);
    out.keys(result.keys);
    return undefined;
  },
});
