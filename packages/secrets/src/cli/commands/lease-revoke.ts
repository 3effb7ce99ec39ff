import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/** `ward lease revoke [-prefix] [-force] ID`: ends a lease, or every lease below a prefix. */
export const leaseRevokeCommand = defineCommand({
  name: 'lease revoke',
  summary: 'Revoke a lease, or (-prefix) every lease whose ID starts with the argument.',
  usage: 'ID',
  example: 'ward lease revoke -prefix database/creds/app/',
  flags: {
    prefix: flag.bool('Treat the argument as a prefix (needs sudo).'),
    force: flag.bool('With -prefix: forget leases whose backend revocation fails (needs sudo). Dangerous.'),
    sync: flag.bool('Wait until the revocation is done (default for -prefix).'),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [id = ''] }, { client, out }) {
    if (flags.force && !flags.prefix) throw new UsageError('-force needs -prefix');
    // A write may not end in `/`; the server reads `apps` as the prefix `apps/` anyway.
    const prefix = id.replace(/\/+$/, '');
    if (flags.force) await client.write(`sys/leases/revoke-force/${prefix}`);
    else if (flags.prefix) await client.write(`sys/leases/revoke-prefix/${prefix}`);
    else await client.write('sys/leases/revoke', { lease_id: id, sync: flags.sync || undefined });
    out.success(flags.prefix ? 'All revocation operations queued successfully!' : `Revocation queued for: ${id}`);
    return undefined;
  },
});
