import { ApiError, type Client, type KvApi, type KvVersionMetadata, type Secret } from '@ward/secrets-client';
import { CliError, flag } from './command.js';
import { UsageError } from './flags.js';
import type { Output } from './output.js';

/** The `-mount` flag of every `kv` command that takes a key. */
export const KV_MOUNT_FLAG = flag.string('Mount path of the engine; PATH is then the key below it.');

/** `-versions=1,3` as numbers; `required` makes an absent or empty flag a usage error. */
export function parseVersions(value: string | undefined, required: boolean): number[] | undefined {
  if (value === undefined || value === '') {
    if (required) throw new UsageError('no versions provided; use -versions=N[,M...]');
    return undefined;
  }
  return value.split(',').map((v) => {
    if (!/^\d+$/.test(v.trim())) throw new UsageError(`-versions: "${v}" is not a version number`);
    return Number(v);
  });
}

/** Refuses a v1 mount for the commands only KV v2 has (`kv metadata …`), as the established CLI does. */
export function requireKvV2(target: KvTarget): void {
  if (target.version === 1) throw new CliError('Metadata not supported on KV Version 1', 1);
}

/** Where a `kv` command's path lives: the mount, the key below it, and the engine version. */
export interface KvTarget {
  kv: KvApi;
  /** The key below the mount (`foo/bar`). */
  key: string;
  version: 1 | 2;
  /** The API path shown to the user: `secret/data/foo` for v2, `secret/foo` for v1. */
  apiPath(section?: 'data' | 'metadata' | 'undelete' | 'destroy'): string;
}

/**
 * `secret/foo` → mount `secret/`, key `foo`, as the established CLI rewrites it. With
 * `-mount` the path is the key itself. The mount and its version (`options.version`) come
 * from `sys/internal/ui/mounts/:path`, which any token with some capability below the mount
 * may read, so a token limited to `secret/data/app/*` can use `kv`.
 */
export async function resolveKv(client: Client, path: string, mountFlag: string | undefined): Promise<KvTarget> {
  const lookup = mountFlag ?? path;
  const found = await explainDenied(path, () => client.sys.mounts.find(lookup));
  if (!found) throw new CliError(`no secrets engine is mounted at a prefix of "${lookup}"`, 2);
  const { options, type } = found.mount;
  const mountPath = found.path;
  const key = mountFlag !== undefined ? path.replace(/^\/+/, '') : path.replace(/^\/+/, '').slice(mountPath.length);
  if (type !== 'kv') throw new CliError(`${mountPath} is a "${type}" engine, not kv`, 2);
  const version = options?.version === '2' ? 2 : 1;
  return {
    kv: client.kv(mountPath),
    key,
    version,
    apiPath: (section = 'data') => (version === 2 ? `${mountPath}${section}/${key}` : `${mountPath}${key}`),
  };
}

/** A token with no capability below the mount gets told which path it needs access to. */
async function explainDenied<T>(path: string, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 403) throw err;
    throw new CliError(
      `cannot tell which KV mount serves "${path}": ${err.errors.join('; ') || 'permission denied'}`,
      2,
    );
  }
}

/** What `kv put`, `kv patch` and `kv rollback` print after writing a version, as the established CLI does. */
export function showWrittenVersion(out: Output, target: KvTarget, secret: Secret<KvVersionMetadata>): void {
  out.section('Secret Path');
  out.note(`${target.apiPath()}\n`);
  out.section('Metadata');
  out.secret(secret);
}
