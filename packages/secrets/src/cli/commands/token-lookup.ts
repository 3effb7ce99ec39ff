import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/** `ward token lookup [TOKEN]`: the caller's token, another token, or (`-accessor`) one by accessor. */
export const tokenLookupCommand = defineCommand({
  name: 'token lookup',
  summary: 'Show the properties of a token.',
  usage: '[TOKEN | ACCESSOR]',
  example: 'ward token lookup',
  flags: { accessor: flag.bool('The argument is an accessor, not a token.') },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out }) {
    const arg = args[0]?.trim();
    if (flags.accessor && arg === undefined) throw new UsageError('-accessor needs the ACCESSOR argument');
    const secret =
      arg === undefined
        ? await client.token.lookupSelf()
        : flags.accessor
          ? await client.token.lookupAccessor(arg)
          : await client.token.lookup(arg);
    out.secret(secret);
    return undefined;
  },
});
