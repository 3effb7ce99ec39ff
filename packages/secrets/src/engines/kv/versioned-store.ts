import { encodeJson, frozenJsonPut, getFrozenJson, getJson, putJson, type Storage } from '../../logical/storage.js';
import { rfc3339Precise } from '../../logical/time.js';

/** One version's lifecycle, as metadata reads show it. */
export interface VersionMetadata {
  created_time: string;
  /** `''` while live; a time (possibly in the future, with `delete_version_after`) once deleted. */
  deletion_time: string;
  destroyed: boolean;
}

/** Everything KV v2 keeps about one secret besides its versions' data. */
export interface KeyMetadata {
  cas_required: boolean;
  created_time: string;
  current_version: number;
  custom_metadata: Record<string, string> | null;
  /** Seconds; 0 = never. */
  delete_version_after: number;
  /** 0 = the mount's setting. */
  max_versions: number;
  oldest_version: number;
  updated_time: string;
  versions: Record<string, VersionMetadata>;
}

/** Mount-wide settings at `<mount>/config`. */
export interface KvConfig {
  /** 0 = the default of 10. */
  max_versions: number;
  cas_required: boolean;
  delete_version_after: number;
}

export const DEFAULT_MAX_VERSIONS = 10;
export const DEFAULT_CONFIG: KvConfig = { max_versions: 0, cas_required: false, delete_version_after: 0 };

/**
 * Storage layout of a KV v2 mount: `metadata/<path>` holds `KeyMetadata` (so listing
 * `metadata/` lists secrets), `versions/<path>/<n>` holds one version's data, `config`
 * the mount settings. All of it sits behind the barrier.
 */
export class VersionedStore {
  constructor(private readonly storage: Storage) {}

  config(): Promise<KvConfig> {
    // A copy of the shared decoded value: every field is a primitive, so callers may change it.
    return getFrozenJson<KvConfig>(this.storage, 'config').then((c) => ({ ...DEFAULT_CONFIG, ...c }));
  }

  putConfig(config: KvConfig): Promise<void> {
    return putJson(this.storage, 'config', config);
  }

  /** The key's metadata as a copy of its own, for a caller that changes it and writes it back. */
  async metadata(path: string): Promise<KeyMetadata | undefined> {
    // Copied from the shared decoded value (kept by the barrier since the last write) rather than
    // decrypted and parsed again: a write reads the metadata it wrote the write before.
    const frozen = await this.frozenMetadata(path);
    return frozen && copyMetadata(frozen);
  }

  /** As `metadata`, frozen and shared by every reader: for reads that only look (decoded once per change). */
  frozenMetadata(path: string): Promise<Readonly<KeyMetadata> | undefined> {
    return getFrozenJson<KeyMetadata>(this.storage, `metadata/${path}`);
  }

  putMetadata(path: string, meta: KeyMetadata): Promise<void> {
    return putJson(this.storage, `metadata/${path}`, meta);
  }

  /** As `versionData`, frozen and shared by every reader. */
  async frozenVersionData(path: string, version: number): Promise<Readonly<Record<string, unknown>> | undefined> {
    return (await getFrozenJson<{ data: Record<string, unknown> }>(this.storage, versionKey(path, version)))?.data;
  }

  async versionData(path: string, version: number): Promise<Record<string, unknown> | undefined> {
    return (await getJson<{ data: Record<string, unknown> }>(this.storage, versionKey(path, version)))?.data;
  }

  /**
   * Writes a new version's data and the metadata that names it, and deletes the data of the
   * versions that metadata no longer keeps (`pruned`), atomically: one commit per write. `meta`
   * is frozen and becomes what `frozenMetadata` returns until the next change (no parse of what
   * was just written), so the caller may read it afterwards but not change it.
   */
  async writeVersion(
    path: string,
    meta: KeyMetadata,
    version: number,
    data: Record<string, unknown>,
    pruned: number[] = [],
  ) {
    await this.storage.transaction([
      { op: 'put', key: versionKey(path, version), value: encodeJson({ data }) },
      frozenJsonPut(`metadata/${path}`, meta),
      ...pruned.map((v) => ({ op: 'delete' as const, key: versionKey(path, v) })),
    ]);
  }

  destroyData(path: string, versions: number[]): Promise<void> {
    return this.storage.transaction(versions.map((v) => ({ op: 'delete' as const, key: versionKey(path, v) })));
  }

  /** Removes the secret, all its versions and its metadata. */
  async deleteAll(path: string, meta: KeyMetadata): Promise<void> {
    await this.storage.transaction([
      ...Object.keys(meta.versions).map((v) => ({ op: 'delete' as const, key: versionKey(path, Number(v)) })),
      { op: 'delete', key: `metadata/${path}` },
    ]);
  }

  list(prefix: string): Promise<string[]> {
    return this.storage.list(`metadata/${prefix}`);
  }
}

/** Where one version of a secret's data is kept. */
export function versionKey(path: string, version: number): string {
  return `versions/${path}/${version}`;
}

/** A copy of `meta` that shares nothing with it (every field is a primitive or a map of primitives). */
function copyMetadata(meta: Readonly<KeyMetadata>): KeyMetadata {
  const versions: Record<string, VersionMetadata> = {};
  // The keys are version numbers our own writes made (never `__proto__`), so assignment is safe.
  for (const n in meta.versions) versions[n] = { ...(meta.versions[n] as VersionMetadata) };
  const custom = meta.custom_metadata;
  return { ...meta, custom_metadata: custom && { ...custom }, versions };
}

export function newMetadata(nowMs: number): KeyMetadata {
  const now = rfc3339Precise(nowMs);
  return {
    cas_required: false,
    created_time: now,
    current_version: 0,
    custom_metadata: null,
    delete_version_after: 0,
    max_versions: 0,
    oldest_version: 0,
    updated_time: now,
    versions: {},
  };
}

/** A version is deleted once its deletion time has passed (it may be set in the future). */
export function isDeleted(v: VersionMetadata, nowMs: number): boolean {
  return v.deletion_time !== '' && Date.parse(v.deletion_time) <= nowMs;
}
