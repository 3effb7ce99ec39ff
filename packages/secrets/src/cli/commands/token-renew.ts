import { defineCommand, flag } from '../command.js';

/** `ward token renew [TOKEN]`: extends a token's TTL (the caller's own without an argument). */
export const tokenRenewCommand = defineCommand({
  name: 'token renew',
  summary: 'Renew a token.',
  usage: '[TOKEN | ACCESSOR]',
  example: 'ward token renew -increment=1h',
  flags: {
    increment: flag.duration('Requested TTL from now (e.g. 1h); the server caps it.'),
    accessor: flag.bool('The argument is an accessor, not a token.'),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out }) {
    const [arg] = args;
    const secret =
      arg === undefined
        ? await client.token.renewSelf(flags.increment)
        : flags.accessor
          ? await client.token.renewAccessor(arg, flags.increment)
          : await client.token.renew(arg, flags.increment);
    out.auth(secret);
    return undefined;
  },
});
