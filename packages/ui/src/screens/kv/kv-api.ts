import type { KvMetadata, KvV2Data, KvVersionMetadata } from '@ward/secrets-client';
import { type Api, ApiError } from '../../api/api.js';

/** A read secret: its data, and (v2) the version's metadata. */
export interface KvSecretRead {
  data: Record<string, unknown> | null;
  metadata?: KvVersionMetadata;
}

/** One KV mount (v1 or v2) as the KV screens use it; paths are relative to the mount. */
export class KvMount {
  constructor(
    private readonly api: Api,
    /** With its trailing slash: `secret/`. */
    readonly path: string,
    readonly version: 1 | 2,
  ) {}

  /** The keys directly below `prefix` (`a/`); folders end in `/`. */
  list(prefix: string): Promise<string[]> {
    return this.api.list(this.version === 2 ? `${this.path}metadata/${prefix}` : `${this.path}${prefix}`);
  }

  /** A secret's data (v2: of `version`, default the current one); a deleted or destroyed version is `undefined`. */
  async read(path: string, version?: number): Promise<KvSecretRead | undefined> {
    if (this.version === 1) {
      const data = await this.api.read<Record<string, unknown>>(`${this.path}${path}`);
      return data && { data };
    }
    const query: Record<string, string> = version ? { version: String(version) } : {};
    try {
      return (await this.api.request<KvV2Data>('GET', `${this.path}data/${path}`, { query }))?.data ?? undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  metadata(path: string): Promise<KvMetadata | undefined> {
    return this.api.read<KvMetadata>(`${this.path}metadata/${path}`);
  }

  /** Writes a new version (v2: with `cas` when given), or the whole secret (v1). */
  async write(path: string, data: Record<string, unknown>, cas?: number): Promise<void> {
    if (this.version === 1) {
      await this.api.write(`${this.path}${path}`, data);
      return;
    }
    await this.api.write(`${this.path}data/${path}`, cas === undefined ? { data } : { data, options: { cas } });
  }

  /** v2: a JSON merge patch of the current version (`null` removes a key), as a new version. */
  async patch(path: string, changes: Record<string, unknown>): Promise<void> {
    await this.api.request('PATCH', `${this.path}data/${path}`, { body: { data: changes } });
  }

  writeMetadata(path: string, body: Record<string, unknown>) {
    return this.api.write(`${this.path}metadata/${path}`, body);
  }

  /** v2: soft-deletes versions (recoverable with `undelete`). */
  deleteVersions(path: string, versions: number[]) {
    return this.api.write(`${this.path}delete/${path}`, { versions });
  }

  undelete(path: string, versions: number[]) {
    return this.api.write(`${this.path}undelete/${path}`, { versions });
  }

  /** v2: removes the versions' data for good. */
  destroy(path: string, versions: number[]) {
    return this.api.write(`${this.path}destroy/${path}`, { versions });
  }

  /** v2: the secret with all its versions and metadata; v1: the secret. */
  deleteAll(path: string) {
    return this.api.delete(this.version === 2 ? `${this.path}metadata/${path}` : `${this.path}${path}`);
  }
}

/** The keys whose values differ between `before` and `after`, as a merge patch (`null`: removed). */
export function mergePatchOf(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(before[k]) !== JSON.stringify(v)) patch[k] = v;
  for (const k of Object.keys(before)) if (!Object.hasOwn(after, k)) patch[k] = null;
  return patch;
}
