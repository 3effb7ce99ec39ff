import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/** `ward token revoke TOKEN | -self | -accessor ACCESSOR`: revokes a token and its children. */
export const tokenRevokeCommand = defineCommand({
  name: 'token revoke',
  summary: 'Revoke a token, its children and their leases.',
  usage: '[TOKEN | ACCESSOR]',
  example: 'ward token revoke -self',
  flags: {
    self: flag.bool("Revoke the caller's own token."),
    accessor: flag.bool('The argument is an accessor, not a token.'),
    mode: flag.string('"orphan" keeps the children (as orphans); needs sudo.'),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out }) {
    const [arg] = args;
    if (flags.self) {
      if (arg !== undefined) throw new UsageError('-self takes no argument');
      await client.token.revokeSelf();
    } else if (arg === undefined) {
      throw new UsageError('a token (or -accessor ACCESSOR, or -self) is required');
    } else if (flags.accessor) {
      await client.token.revokeAccessor(arg);
    } else if (flags.mode === 'orphan') {
      await client.token.revokeOrphan(arg);
    } else if (flags.mode !== undefined) {
      throw new UsageError(`unknown -mode "${flags.mode}": only "orphan" is supported`);
    } else {
      await client.token.revoke(arg);
    }
    out.success('Revoked token (if it existed)');
    return undefined;
  },
});
