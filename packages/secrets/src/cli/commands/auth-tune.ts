import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { mountFlags } from '../mount-flags.js';

/** `ward auth tune -default-lease-ttl=1h userpass/`: changes an auth method's settings. */
export const authTuneCommand = defineCommand({
  name: 'auth tune',
  summary: "Change an auth method's settings (TTLs, description, listing visibility, token type).",
  usage: 'PATH',
  example: 'ward auth tune -default-lease-ttl=1h -max-lease-ttl=24h userpass/',
  flags: {
    description: mountFlags.description,
    'default-lease-ttl': mountFlags['default-lease-ttl'],
    'max-lease-ttl': mountFlags['max-lease-ttl'],
    'listing-visibility': flag.string('"unauth" lists the method to clients without a token; "hidden" does not.'),
    'token-type': flag.string('Tokens its logins issue: default-service, default-batch, service or batch.'),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const input = {
      ...(flags.description !== undefined ? { description: flags.description } : {}),
      ...(flags['default-lease-ttl'] ? { default_lease_ttl: flags['default-lease-ttl'] } : {}),
      ...(flags['max-lease-ttl'] ? { max_lease_ttl: flags['max-lease-ttl'] } : {}),
      ...(flags['listing-visibility'] !== undefined ? { listing_visibility: flags['listing-visibility'] } : {}),
      ...(flags['token-type'] !== undefined ? { token_type: flags['token-type'] } : {}),
    };
    if (Object.keys(input).length === 0) throw new UsageError('nothing to tune: give at least one option');
    const mount = path.replace(/^\/+|\/+$/g, '');
    await client.write(`sys/auth/${mount}/tune`, input);
    out.success(`Tuned the auth method at: ${mount}/`);
    return undefined;
  },
});
