import type { TuneMountInput } from '@ward/secrets-client';
import { defineCommand } from '../command.js';
import { UsageError } from '../flags.js';
import { parsePairs } from '../input.js';
import { mountFlags } from '../mount-flags.js';

/** `ward secrets tune -max-lease-ttl=24h PATH`: changes a mount's settings. */
export const secretsTuneCommand = defineCommand({
  name: 'secrets tune',
  summary: "Change a secrets engine's settings.",
  usage: 'PATH',
  example: 'ward secrets tune -max-lease-ttl=24h apps/',
  flags: mountFlags,
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const options = parsePairs(flags.options, 'options');
    const input: TuneMountInput = {
      ...(flags.description !== undefined ? { description: flags.description } : {}),
      ...(flags['default-lease-ttl'] ? { default_lease_ttl: flags['default-lease-ttl'] } : {}),
      ...(flags['max-lease-ttl'] ? { max_lease_ttl: flags['max-lease-ttl'] } : {}),
      ...(options ? { options } : {}),
    };
    if (Object.keys(input).length === 0) throw new UsageError('nothing to tune: give at least one option');
    await client.sys.mounts.tune(path, input);
    out.success(`Tuned the secrets engine at: ${path.replace(/\/*$/, '/')}`);
    return undefined;
  },
});
