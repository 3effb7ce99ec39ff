import { defineCommand } from '../command.js';

/** `ward kv enable-versioning secret/`: turns a KV version 1 mount into version 2. */
export const kvEnableVersioningCommand = defineCommand({
  name: 'kv enable-versioning',
  summary: 'Turn a KV version 1 mount into version 2 (existing keys become version 1).',
  usage: 'MOUNT',
  example: 'ward kv enable-versioning kv/',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [mount = ''] }, { client, out }) {
    await client.sys.mounts.tune(mount, { options: { version: '2' } });
    out.success(`Tuned the secrets engine at: ${mount.replace(/\/*$/, '/')}`);
    return undefined;
  },
});
