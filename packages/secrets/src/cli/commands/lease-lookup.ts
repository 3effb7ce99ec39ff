import { defineCommand } from '../command.js';

/** `ward lease lookup LEASE_ID`: a lease's issue and expiry times. */
export const leaseLookupCommand = defineCommand({
  name: 'lease lookup',
  summary: 'Show when a lease was issued and when it expires.',
  usage: 'LEASE_ID',
  example: 'ward lease lookup database/creds/app/2f6a…',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [leaseId = ''] }, { client, out }) {
    const secret = await client.write('sys/leases/lookup', { lease_id: leaseId });
    if (secret) out.secret(secret);
    return undefined;
  },
});
