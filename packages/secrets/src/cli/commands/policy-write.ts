import { defineCommand } from '../command.js';

/** `ward policy write NAME FILE` (or `-` for stdin): creates or replaces an ACL policy. */
export const policyWriteCommand = defineCommand({
  name: 'policy write',
  summary: 'Create or replace an ACL policy from a file (or - for stdin).',
  usage: 'NAME FILE | NAME -',
  example: 'ward policy write app app.hcl',
  flags: {},
  args: { min: 2, max: 2 },
  async run({ args: [name = '', source = ''] }, ctx) {
    const policy = source === '-' ? await ctx.readStdin() : await ctx.readFile(source);
    await ctx.client.sys.policies.write(name, policy);
    ctx.out.success(`Uploaded policy: ${name}`);
    return undefined;
  },
});
