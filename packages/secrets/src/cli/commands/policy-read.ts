import { CliError, defineCommand } from '../command.js';

/** `ward policy read NAME`: prints the policy text. */
export const policyReadCommand = defineCommand({
  name: 'policy read',
  summary: 'Print an ACL policy.',
  usage: 'NAME',
  example: 'ward policy read app',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [name = ''] }, { client, out }) {
    const policy = await client.sys.policies.read(name);
    if (policy === null) throw new CliError(`No policy named: ${name}`, 2);
    out.text(policy, { name, policy });
    return undefined;
  },
});
