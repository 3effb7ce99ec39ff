import { defineCommand } from '../command.js';

/** `ward namespace lookup NAME`: a child namespace's ID, path and metadata. */
export const namespaceLookupCommand = defineCommand({
  name: 'namespace lookup',
  summary: "Show a child namespace's ID, path and custom metadata.",
  usage: 'NAME',
  example: 'ward namespace lookup team',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [name = ''] }, { client, out }) {
    const secret = await client.read(`sys/namespaces/${name.replace(/^\/+|\/+$/g, '')}`);
    if (!secret) {
      out.note(`Namespace not found: ${name}`);
      return 2;
    }
    out.secret(secret);
    return undefined;
  },
});
