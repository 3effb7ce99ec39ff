/**
 * One change inside an atomic batch. Structurally the same as the physical
 * `StorageOperation`, so a barrier can hand a batch straight down after encrypting it;
 * it is declared here so backends never import the storage layer.
 */
export type StorageOperation =
  | {
      op: 'put';
      key: string;
      value: Uint8Array;
      /**
       * Optional: `value` decoded exactly as `decodeFrozenJson` would decode it (see `frozenJsonPut`).
       * A barrier keeps it as the entry's decoded value, so the next `getFrozenJson` of the key
       * neither decrypts nor parses; storage below the barrier never sees it. A put with it also
       * gives `value` up: the barrier may keep those bytes as they are, so no one may change them.
       */
      decoded?: unknown;
      /**
       * Optional: the barrier keeps no decrypted copy of this value (and drops any it held for `key`).
       * For entries written on a hot path and rarely read back, such as TOTP replay records, which
       * would otherwise push hot entries out of its cache and keep the garbage collector busy.
       */
      uncached?: boolean;
    }
  | { op: 'delete'; key: string };

/**
 * The storage a backend and the core see: behind the barrier (values are
 * encrypted before they reach disk) and, for a mount, confined to its prefix.
 * Keys are `/`-separated paths without a leading `/`.
 */
export interface Storage {
  /** The value at `key`, or `undefined` when there is none. The buffer is the caller's to keep or change. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Stores `value` at `key`, replacing any value; durable when the promise resolves. Later changes to `value` do not reach the store. */
  put(key: string, value: Uint8Array): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Direct children of `prefix` (`''` or ending in `/`), sorted by code point, without the prefix.
   * A child with children of its own is listed once, ending in `/`; a missing prefix lists as `[]`.
   */
  list(prefix: string): Promise<string[]>;
  /** Applies every operation or none, in order; durable when the promise resolves. */
  transaction(operations: StorageOperation[]): Promise<void>;
  /**
   * The JSON value at `key` decoded by `decode` once and frozen: every read of an unchanged entry
   * gets the same object, without parsing it again. Optional: `getFrozenJson` decodes each time
   * without it. The barrier keeps the value beside the decrypted bytes it caches.
   */
  getDecoded?(key: string, decode: (bytes: Uint8Array) => unknown): Promise<unknown>;
}

// One of each for the process: making them is not free, and every stored entry goes through them.
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** `value` as the UTF-8 JSON bytes every JSON entry is stored as. */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** The value of UTF-8 JSON bytes written by `encodeJson`. The caller vouches for `T`. */
export function decodeJson<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** The JSON value stored at `key`, or `undefined` when there is none. The caller vouches for `T`. */
export async function getJson<T>(storage: Storage, key: string): Promise<T | undefined> {
  const bytes = await storage.get(key);
  return bytes === undefined ? undefined : decodeJson<T>(bytes);
}

/**
 * The JSON value stored at `key`, deeply frozen, or `undefined`: for hot reads that only look. The
 * same object may be handed to every reader until the entry changes, so it cannot be changed.
 */
export function getFrozenJson<T>(storage: Storage, key: string): Promise<Readonly<T> | undefined> {
  // Not async: the storage's own promise is handed on, without one more promise and its microtasks per read.
  if (storage.getDecoded) return storage.getDecoded(key, decodeFrozenJson) as Promise<Readonly<T> | undefined>;
  return storage.get(key).then((bytes) => (bytes === undefined ? undefined : (decodeFrozenJson(bytes) as Readonly<T>)));
}

/** The value of UTF-8 JSON bytes, every object and array in it frozen. */
export function decodeFrozenJson(bytes: Uint8Array): unknown {
  return deepFreeze(decodeJson(bytes));
}

/**
 * Freezes `value` and everything in it. An object already frozen is taken as frozen throughout (as
 * every frozen value here comes from this function): a KV write's new metadata shares its kept
 * versions with the frozen record before it, and need not walk them again.
 */
function deepFreeze(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/**
 * A put of `value` as UTF-8 JSON that also hands the barrier `value` itself, deeply frozen, as what
 * `getFrozenJson` will return for `key` until it changes. The caller gives `value` up: it must be
 * plain JSON data (what `JSON.parse` makes: no `undefined`, class instances or `toJSON`; objects in it
 * already frozen must be so throughout, as `getFrozenJson` hands them out), so that
 * decoding the stored bytes would give an equal value, and must not change it afterwards.
 */
export function frozenJsonPut(key: string, value: unknown): StorageOperation {
  return { op: 'put', key, value: encodeJson(value), decoded: deepFreeze(value) };
}

/** Stores `value` at `key` as UTF-8 JSON. */
export async function putJson(storage: Storage, key: string, value: unknown): Promise<void> {
  await storage.put(key, encodeJson(value));
}

/** Deletes every key below `prefix` (which ends in `/`), depth first. */
export async function deleteTree(storage: Storage, prefix: string): Promise<void> {
  for (const child of await storage.list(prefix)) {
    if (child.endsWith('/')) await deleteTree(storage, `${prefix}${child}`);
    else await storage.delete(`${prefix}${child}`);
  }
}
