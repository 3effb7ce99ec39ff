import { defineCommand, flag } from '../command.js';
import { parsePairs } from '../input.js';
import { mountFlags, mountPathOf } from '../mount-flags.js';

/** `ward auth enable [-path=P] TYPE`: mounts an auth method at `auth/<path>`. */
export const authEnableCommand = defineCommand({
  name: 'auth enable',
  summary: 'Enable an auth method.',
  usage: 'TYPE',
  example: 'ward auth enable -path=people userpass',
  flags: { path: flag.string('Where to mount it below auth/ (default: the type).'), ...mountFlags },
  args: { min: 1, max: 1 },
  async run({ flags, args: [type = ''] }, { client, out }) {
    const path = mountPathOf(flags.path, type);
    const options = parsePairs(flags.options, 'options');
    await client.sys.auth.enable(path, {
      type,
      ...(flags.description !== undefined ? { description: flags.description } : {}),
      config: {
        ...(flags['default-lease-ttl'] ? { default_lease_ttl: flags['default-lease-ttl'] } : {}),
        ...(flags['max-lease-ttl'] ? { max_lease_ttl: flags['max-lease-ttl'] } : {}),
      },
      ...(options ? { options } : {}),
    });
    out.success(`Enabled ${type} auth method at: ${path}`);
    return undefined;
  },
});
