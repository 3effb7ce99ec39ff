import { CliError, defineCommand } from '../command.js';

/** `ward print token`: the token later commands will send (VAULT_TOKEN, else the saved one). */
export const printTokenCommand = defineCommand({
  name: 'print token',
  summary: 'Print the token the CLI would use (VAULT_TOKEN, else the one `ward login` saved).',
  usage: '',
  example: 'ward print token',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    if (!client.authToken) throw new CliError('no token: set VAULT_TOKEN or run `ward login`', 2);
    out.text(client.authToken, client.authToken);
    return undefined;
  },
});
