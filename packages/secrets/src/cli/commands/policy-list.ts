import { defineCommand } from '../command.js';

/** `ward policy list`: one policy name per line. */
export const policyListCommand = defineCommand({
  name: 'policy list',
  summary: 'List the ACL policies.',
  usage: '',
  example: 'ward policy list',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    const names = await client.sys.policies.list();
    out.text(names.join('\n'), names);
    return undefined;
  },
});
