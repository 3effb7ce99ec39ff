import { defineCommand } from '../command.js';

/** `ward policy delete NAME`. */
export const policyDeleteCommand = defineCommand({
  name: 'policy delete',
  summary: 'Delete an ACL policy (tokens keep the name; it then grants nothing).',
  usage: 'NAME',
  example: 'ward policy delete app',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [name = ''] }, { client, out }) {
    await client.sys.policies.delete(name);
    out.success(`Deleted policy: ${name}`);
    return undefined;
  },
});
