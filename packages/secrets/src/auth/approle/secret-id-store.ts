import { KeyedMutex } from '../../framework/index.js';
import { encodeJson, getJson, type Storage } from '../../logical/storage.js';
import type { SaltedDigest } from './salted-digest.js';

/** A stored secret id (never the id itself: its digest is the key). Durations in seconds. */
export interface SecretIdRecord {
  secret_id_accessor: string;
  /** Uses left; 0 = unlimited. */
  secret_id_num_uses: number;
  secret_id_ttl: number;
  creation_time_ms: number;
  last_updated_time_ms: number;
  /** 0 = never expires. */
  expiration_time_ms: number;
  metadata: Record<string, string>;
  /** Normalised CIDR blocks this secret id may be used from. */
  cidr_list: string[];
  /** Normalised CIDR blocks the issued tokens are bound to (overrides the role's). */
  token_bound_cidrs: string[];
}

/** A secret id found by its value or its accessor: its storage key and record. */
export interface FoundSecretId {
  key: string;
  record: SecretIdRecord;
}

interface AccessorEntry {
  secret_id_key: string;
}

/**
 * Secret ids of each role under `secret_id/<role>/<digest>`, and their accessors under
 * `accessor/<digest of accessor>`. Every change to one secret id runs under its key's lock,
 * so a secret id limited to N uses logs in exactly N times however many logins race.
 */
export class SecretIdStore {
  readonly #locks = new KeyedMutex();

  constructor(private readonly digest: SaltedDigest) {}

  async keyOf(role: string, secretId: string): Promise<string> {
    return `secret_id/${role}/${await this.digest.of(secretId)}`;
  }

  /** Runs `fn` with the secret id's key, serialised with every other change to it. */
  async locked<T>(role: string, secretId: string, fn: (key: string) => Promise<T>): Promise<T> {
    const key = await this.keyOf(role, secretId);
    return this.#locks.run(key, () => fn(key));
  }

  /** As `locked`, for a secret id known by its accessor; `fn` gets `undefined` when there is none. */
  async lockedByAccessor<T>(
    storage: Storage,
    role: string,
    accessor: string,
    fn: (found: FoundSecretId | undefined) => Promise<T>,
  ): Promise<T> {
    const entry = await getJson<AccessorEntry>(storage, await this.#accessorKey(accessor));
    if (!entry?.secret_id_key.startsWith(`secret_id/${role}/`)) return fn(undefined);
    const key = entry.secret_id_key;
    return this.#locks.run(key, async () => {
      const record = await getJson<SecretIdRecord>(storage, key);
      return fn(record ? { key, record } : undefined);
    });
  }

  get(storage: Storage, key: string): Promise<SecretIdRecord | undefined> {
    return getJson<SecretIdRecord>(storage, key);
  }

  /** Stores a new record and its accessor together. Call under the key's lock. */
  async create(storage: Storage, key: string, record: SecretIdRecord): Promise<void> {
    await storage.transaction([
      { op: 'put', key, value: encodeJson(record) },
      {
        op: 'put',
        key: await this.#accessorKey(record.secret_id_accessor),
        value: encodeJson({ secret_id_key: key } satisfies AccessorEntry),
      },
    ]);
  }

  async update(storage: Storage, key: string, record: SecretIdRecord): Promise<void> {
    await storage.put(key, encodeJson(record));
  }

  async delete(storage: Storage, found: FoundSecretId): Promise<void> {
    await storage.transaction([
      { op: 'delete', key: found.key },
      { op: 'delete', key: await this.#accessorKey(found.record.secret_id_accessor) },
    ]);
  }

  /** Every stored secret id of `role`. */
  async all(storage: Storage, role: string): Promise<FoundSecretId[]> {
    const found: FoundSecretId[] = [];
    for (const child of await storage.list(`secret_id/${role}/`)) {
      const key = `secret_id/${role}/${child}`;
      const record = await getJson<SecretIdRecord>(storage, key);
      if (record) found.push({ key, record });
    }
    return found;
  }

  /** Roles that have secret ids stored (including roles deleted mid-way). */
  async roles(storage: Storage): Promise<string[]> {
    return (await storage.list('secret_id/')).filter((r) => r.endsWith('/')).map((r) => r.slice(0, -1));
  }

  async #accessorKey(accessor: string): Promise<string> {
    return `accessor/${await this.digest.of(accessor)}`;
  }
}

/** Whether a record is past its expiry at `nowMs`. */
export function isExpired(record: SecretIdRecord, nowMs: number): boolean {
  return record.expiration_time_ms > 0 && nowMs >= record.expiration_time_ms;
}
