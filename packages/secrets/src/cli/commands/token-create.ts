import type { TokenCreateInput } from '@ward/secrets-client';
import { defineCommand, flag } from '../command.js';
import { intFlag, parsePairs } from '../input.js';

/** `ward token create`: a child (or orphan, or role) token of the current one. */
export const tokenCreateCommand = defineCommand({
  name: 'token create',
  summary: 'Create a token.',
  usage: '',
  example: 'ward token create -policy=app -ttl=1h',
  flags: {
    policy: flag.list('Policy to attach.'),
    ttl: flag.duration('Initial TTL (e.g. 1h).'),
    'explicit-max-ttl': flag.duration('Hard limit on the lifetime.'),
    period: flag.duration('Make a periodic token with this period (needs sudo).'),
    'display-name': flag.string('Display name.'),
    'use-limit': flag.string('Number of uses before the token is revoked (0 = unlimited).'),
    metadata: flag.list('Metadata K=V.'),
    orphan: flag.bool('Create a token with no parent.'),
    'no-default-policy': flag.bool('Leave out the default policy.'),
    renewable: flag.string('Whether the token can be renewed (true/false).'),
    type: flag.string('service or batch.'),
    role: flag.string('Create through this token role.'),
    id: flag.string('Choose the token text (needs sudo).'),
  },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, out }) {
    const input: TokenCreateInput = {
      ...(flags.policy.length > 0 ? { policies: flags.policy } : {}),
      ...(flags.ttl ? { ttl: flags.ttl } : {}),
      ...(flags['explicit-max-ttl'] ? { explicit_max_ttl: flags['explicit-max-ttl'] } : {}),
      ...(flags.period ? { period: flags.period } : {}),
      ...(flags['display-name'] ? { display_name: flags['display-name'] } : {}),
      ...(flags['use-limit'] ? { num_uses: intFlag(flags['use-limit'], 'use-limit') } : {}),
      ...(flags.metadata.length > 0 ? { meta: parsePairs(flags.metadata, 'metadata') } : {}),
      ...(flags['no-default-policy'] ? { no_default_policy: true } : {}),
      ...(flags.renewable !== undefined ? { renewable: flags.renewable !== 'false' } : {}),
      ...(flags.type ? { type: flags.type } : {}),
      ...(flags.id ? { id: flags.id } : {}),
    };
    const options = { orphan: flags.orphan, ...(flags.role ? { role: flags.role } : {}) };
    out.auth(await client.token.create(input, options));
    return undefined;
  },
});
