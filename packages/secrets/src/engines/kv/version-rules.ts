import { InvalidRequestError } from '../../logical/errors.js';
import { rfc3339Precise } from '../../logical/time.js';
import { DEFAULT_MAX_VERSIONS, type KeyMetadata, type KvConfig, type VersionMetadata } from './versioned-store.js';

/** The number of versions a secret keeps: its own setting, else the mount's, else 10. */
export function effectiveMaxVersions(meta: Readonly<KeyMetadata>, config: KvConfig): number {
  return meta.max_versions || config.max_versions || DEFAULT_MAX_VERSIONS;
}

/** Seconds after which a new version is deleted: the smaller non-zero of the key's and the mount's. */
function effectiveDeleteAfter(meta: Readonly<KeyMetadata>, config: KvConfig): number {
  // Compared in place (no array per write): this runs on every KV write.
  const own = meta.delete_version_after > 0 ? meta.delete_version_after : 0;
  const mount = config.delete_version_after > 0 ? config.delete_version_after : 0;
  return own > 0 && mount > 0 ? Math.min(own, mount) : own || mount;
}

/**
 * `meta` with a new version recorded and the oldest ones beyond the version limit dropped, as a
 * new object: `meta` (frozen, shared with readers) stays as it was, and the new object shares the
 * versions it keeps with it. Returns it with the new version number and the versions whose data
 * must go.
 */
export function withNewVersion(meta: Readonly<KeyMetadata>, config: KvConfig, nowMs: number) {
  const version = meta.current_version + 1;
  const deleteAfter = effectiveDeleteAfter(meta, config);
  const now = rfc3339Precise(nowMs);
  const numbers = versionNumbers(meta);
  numbers.push(version);
  const pruned = numbers.slice(0, Math.max(0, numbers.length - effectiveMaxVersions(meta, config)));
  const versions: Record<string, VersionMetadata> = {};
  for (let i = pruned.length; i < numbers.length - 1; i++) {
    const n = numbers[i] as number;
    versions[n] = meta.versions[n] as VersionMetadata;
  }
  versions[version] = {
    created_time: now,
    deletion_time: deleteAfter > 0 ? rfc3339Precise(nowMs + deleteAfter * 1000) : '',
    destroyed: false,
  };
  const oldest = pruned.length > 0 ? (numbers[pruned.length] ?? 0) : meta.oldest_version;
  const next: KeyMetadata = { ...meta, current_version: version, updated_time: now, oldest_version: oldest, versions };
  return { meta: next, version, pruned };
}

/** The numbers of the versions `meta` records, ascending. */
function versionNumbers(meta: Readonly<KeyMetadata>): number[] {
  const numbers: number[] = [];
  let isAscending = true;
  for (const key of Object.keys(meta.versions)) {
    const n = Number(key);
    if (numbers.length > 0 && n < (numbers[numbers.length - 1] as number)) isAscending = false;
    numbers.push(n);
  }
  // Version numbers are array indices, which objects enumerate in ascending order: no sort per write.
  return isAscending ? numbers : numbers.sort((a, b) => a - b);
}

/** Removes the oldest versions so that at most `max` remain; returns the removed numbers. */
export function pruneVersions(meta: KeyMetadata, max: number): number[] {
  const numbers = versionNumbers(meta);
  const pruned = numbers.slice(0, Math.max(0, numbers.length - max));
  for (const v of pruned) delete meta.versions[String(v)];
  if (pruned.length > 0) meta.oldest_version = numbers[pruned.length] ?? 0;
  return pruned;
}

/** Refuses a negative version limit: pruning to it would drop even the version just written. */
export function requireValidMaxVersions(value: number): number {
  if (value < 0) throw new InvalidRequestError('max_versions cannot be negative');
  return value;
}
