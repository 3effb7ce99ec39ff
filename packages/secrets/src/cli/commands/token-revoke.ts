import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/** The `-mode` values, as established: the tree (default), the token alone, or every token of a login path. */
const MODES = new Set(['', 'orphan', 'path']);

/**
 * `ward token revoke TOKEN | -self | -accessor ACCESSOR | -mode=orphan TOKEN | -mode=path PATH`.
 * Without `-mode` a token goes with its children; `orphan` keeps the children (needs sudo);
 * `path` revokes every token created by logins below PATH (`auth/userpass/`, through
 * `sys/leases/revoke-prefix`; needs sudo). The combinations the established CLI refuses are refused.
 */
export const tokenRevokeCommand = defineCommand({
  name: 'token revoke',
  summary: 'Revoke a token, its children and their leases.',
  usage: '[TOKEN | ACCESSOR | PATH]',
  example: 'ward token revoke -self',
  flags: {
    self: flag.bool("Revoke the caller's own token."),
    accessor: flag.bool('The argument is an accessor, not a token.'),
    mode: flag.string(
      '"orphan" keeps the children (as orphans); "path" revokes the tokens of every login below the PATH argument (auth/userpass/). Both need sudo.',
    ),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out }) {
    const arg = args[0]?.trim();
    const mode = flags.mode ?? '';
    if (!MODES.has(mode)) throw new UsageError(`invalid mode: ${mode} (orphan or path)`);
    if (flags.self && arg !== undefined) throw new UsageError('-self takes no argument');
    if (!flags.self && arg === undefined) throw new UsageError('a token (or -accessor ACCESSOR, or -self) is required');
    if (flags.self && flags.accessor) throw new UsageError('-self and -accessor go apart');
    if (flags.self && mode !== '') throw new UsageError('-self and -mode go apart');
    if (flags.accessor && mode !== '') throw new UsageError(`-accessor and -mode=${mode} go apart`);
    if (flags.self) await client.token.revokeSelf();
    else if (flags.accessor) await client.token.revokeAccessor(arg ?? '');
    else if (mode === 'orphan') await client.token.revokeOrphan(arg ?? '');
    // A write may not end in `/`; the server reads `auth/userpass` as the prefix `auth/userpass/`.
    else if (mode === 'path') await client.write(`sys/leases/revoke-prefix/${(arg ?? '').replace(/^\/+|\/+$/g, '')}`);
    else await client.token.revoke(arg ?? '');
    out.success('Revoked token (if it existed)');
    return undefined;
  },
});
