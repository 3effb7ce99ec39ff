import { type Random, randomUuid } from '@ward/base';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { createManagedKeyBackend, type KmsDeps, type ManagedKeyBackend } from '../kms/index.js';
import type { KeyType, ParamValue } from './key-types.js';

/** A stored managed key, under `managed-keys/<name>` in its namespace's `sys/` storage. */
export interface ManagedKeyRecord {
  /** Stable id engines may store; the name may be reused after a delete. */
  UUID: string;
  name: string;
  type: KeyType;
  /** Every parameter of the type (wire names), coerced and defaulted. */
  params: Record<string, ParamValue>;
}

const PREFIX = 'managed-keys/';

/**
 * The managed keys of one namespace, and the live provider connection of each (PKCS#11
 * session pools, SDK clients), opened on first use and replaced when the key changes.
 */
export class ManagedKeys {
  readonly #live = new Map<string, { record: string; backend: ManagedKeyBackend }>();

  constructor(
    private readonly storage: Storage,
    private readonly deps: KmsDeps & { random: Random },
  ) {}

  get(name: string): Promise<ManagedKeyRecord | undefined> {
    return getJson<ManagedKeyRecord>(this.storage, PREFIX + name);
  }

  /** The key whose `UUID` is `id` (engines store ids; a handful of keys per namespace makes a scan cheap). */
  async byId(id: string): Promise<ManagedKeyRecord | undefined> {
    for (const name of await this.storage.list(PREFIX)) {
      const record = await this.get(name);
      if (record?.UUID === id) return record;
    }
    return undefined;
  }

  /** Names of the keys of `type`, sorted. */
  async list(type: KeyType): Promise<string[]> {
    const names = await this.storage.list(PREFIX);
    const records = await Promise.all(names.map((n) => this.get(n)));
    return records.filter((r) => r?.type === type).map((r) => (r as ManagedKeyRecord).name);
  }

  /** Stores a new key (with a fresh UUID) or the new parameters of an existing one. */
  async put(name: string, type: KeyType, params: Record<string, ParamValue>): Promise<ManagedKeyRecord> {
    const existing = await this.get(name);
    const record = { UUID: existing?.UUID ?? randomUuid(this.deps.random), name, type, params };
    await putJson(this.storage, PREFIX + name, record);
    await this.#retire(name);
    return record;
  }

  async delete(name: string): Promise<void> {
    await this.storage.delete(PREFIX + name);
    await this.#retire(name);
  }

  /** The provider connection of `record`, shared by every request using the key. */
  backend(record: ManagedKeyRecord): ManagedKeyBackend {
    const text = JSON.stringify(record);
    const live = this.#live.get(record.name);
    if (live?.record === text) return live.backend;
    if (live) void live.backend.close();
    const backend = createManagedKeyBackend(record.type, record.params, this.deps);
    this.#live.set(record.name, { record: text, backend });
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
