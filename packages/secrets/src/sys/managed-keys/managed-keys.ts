import { type Random, randomUuid } from '@ward/base';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { createManagedKeyBackend, type KmsDeps, type ManagedKeyBackend } from '../kms/index.js';
import type { KeyType, ParamValue } from './key-types.js';

/**
 * A stored managed key, under `managed-keys/<name>` in the `sys/` storage for the root namespace
 * and `managed-keys-ns/<namespace id>/<name>` for the others (every namespace's `sys/` shares one
 * storage view).
 */
export interface ManagedKeyRecord {
  /** Stable id engines may store; the name may be reused after a delete. */
  UUID: string;
  name: string;
  type: KeyType;
  /** Every parameter of the type (wire names), coerced and defaulted. */
  params: Record<string, ParamValue>;
}

/**
 * The managed keys of one namespace, and the live provider connection of each (PKCS#11
 * session pools, SDK clients), opened on first use and replaced when the key changes.
 */
export class ManagedKeys {
  readonly #live = new Map<string, { record: ManagedKeyRecord; backend: ManagedKeyBackend }>();
  /** Records read or written, by name (`null`: known not to exist). */
  readonly #records = new Map<string, ManagedKeyRecord | null>();
  readonly #nameOfId = new Map<string, string>();

  readonly #prefix: string;

  constructor(
    private readonly storage: Storage,
    namespaceId: string,
    private readonly deps: KmsDeps & { random: Random },
  ) {
    this.#prefix = namespaceId === 'root' ? 'managed-keys/' : `managed-keys-ns/${namespaceId}/`;
  }

  /**
   * The stored key named `name`. Records are kept in memory once read: every write goes through
   * this object (one per namespace and unseal), and each signature looks its key up.
   */
  async get(name: string): Promise<ManagedKeyRecord | undefined> {
    if (this.#records.has(name)) return this.#records.get(name) ?? undefined;
    const record = await getJson<ManagedKeyRecord>(this.storage, this.#prefix + name);
    this.#records.set(name, record ?? null);
    return record;
  }

  /** The key whose `UUID` is `id` (engines store ids). */
  async byId(id: string): Promise<ManagedKeyRecord | undefined> {
    const name = this.#nameOfId.get(id);
    if (name !== undefined) return this.get(name);
    for (const listed of await this.storage.list(this.#prefix)) {
      const record = await this.get(listed);
      if (record) this.#nameOfId.set(record.UUID, record.name);
      if (record?.UUID === id) return record;
    }
    return undefined;
  }

  /** Names of the keys of `type`, sorted. */
  async list(type: KeyType): Promise<string[]> {
    const names = await this.storage.list(this.#prefix);
    const records = await Promise.all(names.map((n) => this.get(n)));
    return records.filter((r) => r?.type === type).map((r) => (r as ManagedKeyRecord).name);
  }

  /** Stores a new key (with a fresh UUID) or the new parameters of an existing one. */
  async put(name: string, type: KeyType, params: Record<string, ParamValue>): Promise<ManagedKeyRecord> {
    const existing = await this.get(name);
    const record = { UUID: existing?.UUID ?? randomUuid(this.deps.random), name, type, params };
    await putJson(this.storage, this.#prefix + name, record);
    this.#records.set(name, record);
    this.#nameOfId.set(record.UUID, name);
    await this.#retire(name);
    return record;
  }

  async delete(name: string): Promise<void> {
    const record = await this.get(name);
    await this.storage.delete(this.#prefix + name);
    this.#records.set(name, null);
    if (record) this.#nameOfId.delete(record.UUID);
    await this.#retire(name);
  }

  /** The provider connection of `record`, shared by every request using the key. */
  backend(record: ManagedKeyRecord): ManagedKeyBackend {
    // A write stores a new record object, so the same object means the same settings.
    const live = this.#live.get(record.name);
    if (live?.record === record) return live.backend;
    if (live) void live.backend.close();
    const backend = createManagedKeyBackend(record.type, record.params, this.deps);
    this.#live.set(record.name, { record, backend });
    return backend;
  }

  /** Closes every provider connection (seal). */
  async close(): Promise<void> {
    await Promise.all([...this.#live.keys()].map((name) => this.#retire(name)));
  }

  async #retire(name: string): Promise<void> {
    const live = this.#live.get(name);
    this.#live.delete(name);
    await live?.backend.close();
  }
}
