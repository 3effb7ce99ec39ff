import { defineCommand } from '../command.js';

/** `ward namespace delete NAME`: refused by the server while the namespace has children. */
export const namespaceDeleteCommand = defineCommand({
  name: 'namespace delete',
  summary: 'Delete a child namespace of the current one.',
  usage: 'NAME',
  example: 'ward namespace delete team',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [name = ''] }, { client, out }) {
    await client.sys.namespaces.delete(name);
    out.success(`Namespace deleted: ${name}`);
    return undefined;
  },
});
