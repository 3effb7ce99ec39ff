import { CliError, defineCommand } from '../command.js';

/** `ward unwrap [TOKEN]`: the response a wrapping token holds; without TOKEN, the CLI's own token is it. */
export const unwrapCommand = defineCommand({
  name: 'unwrap',
  summary: 'Unwrap a response-wrapping token.',
  usage: '[TOKEN]',
  example: 'ward unwrap hvs.CAESI…',
  description:
    'Prints the response the wrapping token holds. A wrapping token can be unwrapped once. Without TOKEN, ' +
    'the token the CLI would send (VAULT_TOKEN, or the one `login` saved) is the wrapping token.',
  flags: {},
  args: { min: 0, max: 1 },
  async run({ args: [token] }, ctx) {
    const secret = await ctx.client.unwrap(token);
    if (!secret) throw new CliError('the wrapping token held no response', 2);
    if (secret.auth) ctx.out.auth(secret);
    else ctx.out.secret(secret);
    return undefined;
  },
});
