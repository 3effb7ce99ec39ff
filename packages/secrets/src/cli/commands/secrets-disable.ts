import { defineCommand } from '../command.js';

/** `ward secrets disable PATH`: unmounts an engine and erases its data. */
export const secretsDisableCommand = defineCommand({
  name: 'secrets disable',
  summary: 'Disable a secrets engine; everything stored under it is erased.',
  usage: 'PATH',
  example: 'ward secrets disable apps/',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [path = ''] }, { client, out }) {
    await client.sys.mounts.disable(path);
    out.success(`Disabled the secrets engine (if it existed) at: ${path.replace(/\/*$/, '/')}`);
    return undefined;
  },
});
