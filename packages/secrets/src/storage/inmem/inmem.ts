import { InternalError } from '../../logical/errors.js';
import { compareCodePoints } from '../code-point-order.js';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from '../storage.js';

/** A map in memory: the dev-mode backend, lost on exit. */
export class InmemStorage implements StorageBackend {
  #data = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    const value = this.#data.get(key);
    return value === undefined ? undefined : new Uint8Array(value);
  }

  async holds(key: string, value: Uint8Array): Promise<boolean> {
    const stored = this.#data.get(key);
    return stored !== undefined && Buffer.from(stored.buffer, stored.byteOffset, stored.length).equals(value);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.#data.set(key, copyValue(key, value));
  }

  async delete(key: string): Promise<void> {
    this.#data.delete(key);
  }

  async list(prefix: string): Promise<string[]> {
    const children = new Set<string>();
    for (const key of this.#data.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf('/');
      children.add(slash === -1 ? rest : rest.slice(0, slash + 1));
    }
    return [...children].sort(compareCodePoints);
  }

  async transaction(operations: StorageOperation[]): Promise<void> {
    // Copy (and so validate) every value before touching the map: a bad operation
    // anywhere in the batch then leaves the store exactly as it was.
    const values: Array<Uint8Array | undefined> = new Array(operations.length);
    for (let i = 0; i < operations.length; i++) {
      const o = operations[i] as StorageOperation;
      if (o.op === 'put') values[i] = copyValue(o.key, o.value);
    }
    for (let i = 0; i < operations.length; i++) {
      const o = operations[i] as StorageOperation;
      if (o.op === 'put') this.#data.set(o.key, values[i] as Uint8Array);
      else this.#data.delete(o.key);
    }
  }

  /**
   * Takes the list of entries now; values are never changed in place (put stores a fresh
   * copy), so the view holds references only and copies each value as it is read.
   */
  async openSnapshot(): Promise<StorageSnapshot> {
    let view: [string, Uint8Array][] | undefined = [...this.#data].sort(([a], [b]) => compareCodePoints(a, b));
    return {
      count: view.length,
      async *entries() {
        for (const [key, value] of view ?? []) yield { key, value: new Uint8Array(value) };
        view = undefined;
      },
      async close() {
        view = undefined;
      },
    };
  }

  /** Builds the new map aside and swaps it in whole, so a failure mid-way changes nothing. */
  async replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void> {
    const staged = new Map<string, Uint8Array>();
    for await (const { key, value } of entries) {
      if (typeof key !== 'string') throw new InternalError('storage key must be a string');
      staged.set(key, copyValue(key, value));
    }
    this.#data = staged;
  }

  async close(): Promise<void> {
    this.#data.clear();
  }
}

/**
 * A private copy of `value`. `new Uint8Array(view)` copies only the view's bytes;
 * `Buffer#slice` would not copy at all, so a caller reusing its buffer could change the store.
 */
function copyValue(key: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
  return new Uint8Array(value);
}
