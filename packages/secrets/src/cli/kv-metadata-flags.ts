import type { Client } from '@ward/secrets-client';
import { type Command, defineCommand, flag } from './command.js';
import { UsageError } from './flags.js';
import { intFlag, parsePairs } from './input.js';
import { KV_MOUNT_FLAG, type KvTarget, requireKvV2, resolveKv } from './kv-path.js';

/** The settings flags `kv metadata put` and `kv metadata patch` share. */
export const kvMetadataFlags = {
  'max-versions': flag.string('Versions kept (0 = the mount setting).'),
  'cas-required': flag.string('true: every write must give -cas.'),
  'delete-version-after': flag.duration('Versions are soft-deleted this long after writing (e.g. 720h; 0 = never).'),
  'custom-metadata': flag.list('K=V pair of custom metadata (repeatable).'),
};

/** The metadata body of the flags given; flags left out are left out of the body. */
export function kvMetadataSettings(flags: {
  'max-versions': string | undefined;
  'cas-required': string | undefined;
  'delete-version-after': string | undefined;
  'custom-metadata': string[];
}): Record<string, unknown> {
  const maxVersions = intFlag(flags['max-versions'], 'max-versions');
  const cas = flags['cas-required'];
  if (cas !== undefined && cas !== 'true' && cas !== 'false') throw new UsageError('-cas-required takes true or false');
  const custom = parsePairs(flags['custom-metadata'], 'custom-metadata');
  return {
    ...(maxVersions !== undefined ? { max_versions: maxVersions } : {}),
    ...(cas !== undefined ? { cas_required: cas === 'true' } : {}),
    ...(flags['delete-version-after'] !== undefined ? { delete_version_after: flags['delete-version-after'] } : {}),
    ...(custom ? { custom_metadata: custom } : {}),
  };
}

/**
 * A command that writes a KV v2 key's settings from the flags (`kv metadata put`, `kv metadata
 * patch`): `write` sends them as that command does.
 */
export function kvMetadataWriteCommand(o: {
  name: string;
  summary: string;
  example: string;
  write(client: Client, target: KvTarget, settings: Record<string, unknown>): Promise<unknown>;
}): Command {
  return defineCommand({
    name: o.name,
    summary: o.summary,
    usage: 'PATH',
    example: o.example,
    flags: { mount: KV_MOUNT_FLAG, ...kvMetadataFlags },
    args: { min: 1, max: 1 },
    async run({ flags, args: [path = ''] }, { client, out }) {
      const settings = kvMetadataSettings(flags);
      const target = await resolveKv(client, path, flags.mount);
      requireKvV2(target);
      await o.write(client, target, settings);
      out.success(`Data written to: ${target.apiPath('metadata')}`);
      return undefined;
    },
  });
}
