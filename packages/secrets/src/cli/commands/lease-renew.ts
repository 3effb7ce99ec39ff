import { defineCommand, flag } from '../command.js';

/** `ward lease renew [-increment=1h] LEASE_ID`: extends a lease. */
export const leaseRenewCommand = defineCommand({
  name: 'lease renew',
  summary: 'Extend a lease (the server may grant less than asked).',
  usage: 'LEASE_ID',
  example: 'ward lease renew -increment=1h database/creds/app/2f6a…',
  flags: { increment: flag.duration('Requested extension (e.g. 1h); default: the lease’s own TTL.') },
  args: { min: 1, max: 1 },
  async run({ flags, args: [leaseId = ''] }, { client, out }) {
    const body = { lease_id: leaseId, ...(flags.increment ? { increment: flags.increment } : {}) };
    const secret = await client.write('sys/leases/renew', body);
    if (secret)
      out.fields(
        { lease_id: secret.lease_id, lease_duration: secret.lease_duration, lease_renewable: secret.renewable },
        secret,
      );
    return undefined;
  },
});
