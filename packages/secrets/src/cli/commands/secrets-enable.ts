import { defineCommand, flag } from '../command.js';
import { parsePairs } from '../input.js';
import { mountFlags, mountPathOf } from '../mount-flags.js';

/** `ward secrets enable [-path=P] TYPE`: mounts a secrets engine (`-version=2` for KV v2). */
export const secretsEnableCommand = defineCommand({
  name: 'secrets enable',
  summary: 'Enable a secrets engine.',
  usage: 'TYPE',
  example: 'ward secrets enable -path=apps -version=2 kv',
  flags: {
    path: flag.string('Where to mount it (default: the type).'),
    version: flag.string('Engine version (kv: 1 or 2); same as -options=version=N.'),
    ...mountFlags,
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [type = ''] }, { client, out }) {
    const path = mountPathOf(flags.path, type);
    const options = { ...parsePairs(flags.options, 'options'), ...(flags.version ? { version: flags.version } : {}) };
    await client.sys.mounts.enable(path, {
      type,
      ...(flags.description !== undefined ? { description: flags.description } : {}),
      config: {
        ...(flags['default-lease-ttl'] ? { default_lease_ttl: flags['default-lease-ttl'] } : {}),
        ...(flags['max-lease-ttl'] ? { max_lease_ttl: flags['max-lease-ttl'] } : {}),
      },
      ...(Object.keys(options).length > 0 ? { options } : {}),
    });
    out.success(`Enabled the ${type} secrets engine at: ${path}`);
    return undefined;
  },
});
