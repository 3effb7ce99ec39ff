import { CliError, defineCommand } from '../command.js';
import { KV_MOUNT_FLAG, requireKvV2, resolveKv } from '../kv-path.js';

/** `ward kv metadata get secret/foo`: the key's metadata and every version (KV v2 only). */
export const kvMetadataGetCommand = defineCommand({
  name: 'kv metadata get',
  summary: 'Show the metadata and versions of a KV v2 secret.',
  usage: 'PATH',
  example: 'ward kv metadata get secret/app',
  flags: { mount: KV_MOUNT_FLAG },
  args: { min: 1, max: 1 },
  async run({ flags, args: [path = ''] }, { client, out }) {
    const target = await resolveKv(client, path, flags.mount);
    requireKvV2(target);
    const secret = await target.kv.v2.readMetadata(target.key);
    if (!secret?.data) throw new CliError(`No value found at ${target.apiPath('metadata')}`, 2);
    const { versions, ...metadata } = secret.data;
    out.section('Metadata Path');
    out.note(`${target.apiPath('metadata')}\n`);
    out.section('Metadata');
    out.fields(metadata, secret);
    out.note('');
    for (const [n, v] of Object.entries(versions).sort(([a], [b]) => Number(b) - Number(a))) {
      out.section(`Version ${n}`, { ...v });
    }
    return undefined;
  },
});
