import { envelopeOrNull } from './envelope.js';
import type { Transport } from './transport.js';
import type { KvMetadata, KvV2Data, KvVersionMetadata, Secret } from './types.js';

/** KV version 1: paths are used as given below the mount. */
export interface KvV1Api {
  get(path: string): Promise<Secret | null>;
  /** Replaces the whole map at `path`. */
  put(path: string, data: Record<string, unknown>): Promise<void>;
  /** Keys one level below `path` (folders end in `/`); `[]` when there are none. */
  list(path: string): Promise<string[]>;
  delete(path: string): Promise<void>;
}

/** KV version 2: the helpers add `data/`, `metadata/` and `delete/` after the mount. */
export interface KvV2Api {
  /** The latest (or the given) version; a deleted version comes back with `data.data: null`. */
  get(path: string, options?: { version?: number }): Promise<Secret<KvV2Data> | null>;
  /** Writes a new version; `cas` makes it conditional on the current version. */
  put(path: string, data: Record<string, unknown>, options?: { cas?: number }): Promise<Secret<KvVersionMetadata>>;
  list(path: string): Promise<string[]>;
  /** Merges `data` into the latest version (JSON merge patch: `null` removes a key), making a new version. */
  patch(path: string, data: Record<string, unknown>, options?: { cas?: number }): Promise<Secret<KvVersionMetadata>>;
  /** Soft-deletes the latest version, or the given versions. */
  delete(path: string, versions?: number[]): Promise<void>;
  /** Restores soft-deleted versions. */
  undelete(path: string, versions: number[]): Promise<void>;
  /** Erases the data of versions for good (their metadata stays). */
  destroy(path: string, versions: number[]): Promise<void>;
  /** Sets a key's settings: `max_versions`, `cas_required`, `delete_version_after`, `custom_metadata`. */
  writeMetadata(path: string, settings: Record<string, unknown>): Promise<void>;
  readMetadata(path: string): Promise<Secret<KvMetadata> | null>;
  /** Removes every version and the metadata. */
  deleteMetadata(path: string): Promise<void>;
  /** The full API path of a key's data (`secret/data/foo`), as policies must name it. */
  dataPath(path: string): string;
}

/** The helpers of one mount; `version()` asks the server which one it is. */
export interface KvApi {
  readonly mount: string;
  v1: KvV1Api;
  v2: KvV2Api;
  /** 2 when the mount's `options.version` is "2", else 1; throws `ApiError` 404 without a mount there. */
  version(): Promise<1 | 2>;
}

export function kvApi(t: Transport, rawMount: string): KvApi {
  const mount = rawMount.replace(/^\/+|\/+$/g, '');
  const at = (...parts: string[]) => [mount, ...parts.map((p) => p.replace(/^\/+/, ''))].filter(Boolean).join('/');
  const keysOf = async (folder: string) => {
    const path = `${folder.replace(/\/+$/, '')}/`;
    const res = await t.send('LIST', path);
    return (envelopeOrNull(res, 'LIST', t, path)?.data?.keys as string[] | undefined) ?? [];
  };
  return {
    mount,
    v1: {
      get: async (path) => envelopeOrNull(await t.send('GET', at(path)), 'GET', t, at(path)),
      put: async (path, data) => {
        await t.call('PUT', at(path), { body: data });
      },
      list: (path) => keysOf(at(path)),
      delete: async (path) => {
        await t.call('DELETE', at(path));
      },
    },
    v2: {
      get: async (path, o = {}) => {
        const query = o.version !== undefined ? { version: String(o.version) } : undefined;
        const res = await t.send('GET', at('data', path), { query });
        return envelopeOrNull(res, 'GET', t, at('data', path)) as Secret<KvV2Data> | null;
      },
      put: async (path, data, o = {}) => {
        const body = { data, ...(o.cas !== undefined ? { options: { cas: o.cas } } : {}) };
        return (await t.call('PUT', at('data', path), { body })).body as Secret<KvVersionMetadata>;
      },
      list: (path) => keysOf(at('metadata', path)),
      patch: async (path, data, o = {}) => {
        const body = { data, ...(o.cas !== undefined ? { options: { cas: o.cas } } : {}) };
        const contentType = 'application/merge-patch+json';
        return (await t.call('PATCH', at('data', path), { body, contentType })).body as Secret<KvVersionMetadata>;
      },
      undelete: async (path, versions) => {
        await t.call('PUT', at('undelete', path), { body: { versions } });
      },
      destroy: async (path, versions) => {
        await t.call('PUT', at('destroy', path), { body: { versions } });
      },
      writeMetadata: async (path, settings) => {
        await t.call('PUT', at('metadata', path), { body: settings });
      },
      delete: async (path, versions) => {
        if (versions && versions.length > 0) await t.call('PUT', at('delete', path), { body: { versions } });
        else await t.call('DELETE', at('data', path));
      },
      readMetadata: async (path) =>
        envelopeOrNull(
          await t.send('GET', at('metadata', path)),
          'GET',
          t,
          at('metadata', path),
        ) as Secret<KvMetadata> | null,
      deleteMetadata: async (path) => {
        await t.call('DELETE', at('metadata', path));
      },
      dataPath: (path) => at('data', path),
    },
    version: async () => {
      const res = await t.call('GET', `sys/mounts/${mount}`);
      const options = (res.body as { data?: { options?: Record<string, string> | null } }).data?.options;
      return options?.version === '2' ? 2 : 1;
    },
  };
}
