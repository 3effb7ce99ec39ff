import { defineCommand } from '../command.js';

/** `ward auth disable PATH`: unmounts an auth method; tokens it issued are revoked. */
export const authDisableCommand = defineCommand({
  name: 'auth disable',
  summary: 'Disable an auth method.',
  usage: 'PATH',
  example: 'ward auth disable userpass/',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [path = ''] }, { client, out }) {
    await client.sys.auth.disable(path);
    out.success(`Disabled the auth method (if it existed) at: ${path.replace(/\/*$/, '/')}`);
    return undefined;
  },
});
