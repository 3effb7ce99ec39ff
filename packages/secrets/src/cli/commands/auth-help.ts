import { CliError, defineCommand } from '../command.js';

/**
 * `ward auth help TYPE|PATH`: the server's help for an enabled auth method, found by its mount
 * path (`userpass/`) or, failing that, by its type (the first mount of it).
 */
export const authHelpCommand = defineCommand({
  name: 'auth help',
  summary: 'Show the help of an enabled auth method (by path or type).',
  usage: 'TYPE | PATH',
  example: 'ward auth help oidc',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [target = ''] }, { client, out }) {
    const mounts = await client.sys.auth.list();
    const path = target.replace(/^\/+|\/+$/g, '');
    const byPath = mounts[`${path}/`];
    const byType = Object.entries(mounts).find(([, m]) => m.type === path)?.[0];
    const mount = byPath ? `${path}/` : byType;
    if (!mount) throw new CliError(`no auth method is enabled at ${path}/ or of type ${path}`, 2);
    const help = await client.help(`auth/${mount}`);
    out.text(help.help, help);
    return undefined;
  },
});
