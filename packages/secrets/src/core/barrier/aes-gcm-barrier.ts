import type { Clock, Random } from '@ward/base';
import { InternalError, InvalidRequestError, SealedError } from '../../logical/errors.js';
import type { Storage, StorageOperation } from '../../logical/storage.js';
import type { StorageBackend } from '../../storage/index.js';
import { decryptEntry, encryptEntry, entryTerm, NONCE_BYTES } from './entry-format.js';
import { KEY_BYTES, Keyring } from './keyring.js';
import { PlaintextCache } from './plaintext-cache.js';
import { ReadOnlyStorageError } from './read-only-error.js';
import { KEYRING_PATH, openStoredKeyring, parseKeyring, ROOT_KEY_PATH } from './stored-keyring.js';
import { StoredReads } from './stored-reads.js';

export { KEYRING_PATH, ROOT_KEY_PATH };

/** The term the keyring entry carries; it is encrypted with the root key, which has no term. */
const KEYRING_ENTRY_TERM = 1;

export interface KeyStatus {
  term: number;
  installTimeMs: number;
  /** Counted in memory and stored with the keyring when it is written (initialise, rotate). */
  encryptions: number;
}

export interface AesGcmBarrierOptions {
  physical: StorageBackend;
  /** Draws data keys and the nonce of every write; production passes `cryptoRandom`. */
  random: Random;
  clock: Clock;
  /** Decrypted values of recent reads and writes; default: 32 MiB (see plaintext-cache.ts). */
  cache?: PlaintextCache;
  /** The root key as the seal stores it (an auto seal's, through its key service): see `reloadKeyring`. */
  sealedRootKey?: () => Promise<Uint8Array | undefined>;
}

/** `active`: the one writer of the cluster; `standby`: reads only, kept current by the change feed. */
export type BarrierHaRole = 'active' | 'standby';

interface Unsealed {
  keyring: Keyring;
  rootKey: Uint8Array;
}

/**
 * The only thing between the core and untrusted storage: every value is encrypted with the
 * keyring's active term on the way down and authenticated on the way up. Keys (paths) are
 * stored in the clear, as established servers do, so listing needs no key.
 */
export class AesGcmBarrier implements Storage {
  readonly #physical: StorageBackend;
  readonly #random: Random;
  readonly #clock: Clock;
  readonly #cache: PlaintextCache;
  readonly #sealedRootKey: AesGcmBarrierOptions['sealedRootKey'];
  #state: Unsealed | undefined;
  /** This server's part in an HA cluster (see `setHaRole`); `undefined` alone on its storage or without HA. */
  #haRole: BarrierHaRole | undefined;
  readonly #reads: StoredReads;

  constructor(options: AesGcmBarrierOptions) {
    this.#physical = options.physical;
    this.#random = options.random;
    this.#clock = options.clock;
    this.#cache = options.cache ?? new PlaintextCache();
    this.#reads = new StoredReads(this.#physical, this.#cache);
    this.#sealedRootKey = options.sealedRootKey;
  }

  /** Whether a keyring has been stored; works sealed. */
  async isInitialized(): Promise<boolean> {
    return (await this.#physical.get(KEYRING_PATH)) !== undefined;
  }

  /**
   * Creates keyring term 1 and stores it encrypted with `rootKey`, plus the root key copy,
   * in one transaction. Leaves the barrier sealed. A second call is refused.
   */
  async initialize(rootKey: Uint8Array): Promise<void> {
    checkRootKey(rootKey);
    if (await this.isInitialized()) throw new InvalidRequestError('Vault is already initialized');
    const keyring = Keyring.create(this.#random, this.#clock);
    try {
      await this.#persistKeyring(keyring, rootKey);
    } finally {
      keyring.zero();
    }
  }

  /**
   * Decrypts the keyring with `rootKey` and opens the barrier; does nothing when already open.
   * A key that does not decrypt the keyring is an `InvalidRequestError` starting `invalid key: `.
   */
  async unseal(rootKey: Uint8Array): Promise<void> {
    if (this.#state) return;
    checkRootKey(rootKey);
    const stored = await this.#physical.get(KEYRING_PATH);
    if (stored === undefined) throw new InvalidRequestError('Vault is not initialized');
    const plaintext = decryptEntry(rootKey, KEYRING_PATH, stored);
    if (plaintext === undefined) {
      throw new InvalidRequestError(
        'invalid key: failed to decrypt keys from storage: cipher: message authentication failed',
      );
    }
    const keyring = parseKeyring(plaintext);
    if (this.#state) {
      keyring.zero(); // another unseal finished while we read storage
      return;
    }
    this.#state = { keyring, rootKey: new Uint8Array(rootKey) };
  }

  /** Forgets the keyring and root key, overwriting them with zeroes. Harmless when sealed. */
  seal(): void {
    const state = this.#state;
    this.#state = undefined;
    this.#reads.forgetAll();
    state?.keyring.zero();
    state?.rootKey.fill(0);
  }

  isSealed(): boolean {
    return this.#state === undefined;
  }

  /**
   * A copy of the root key while unsealed (the caller zeroes it once used): the worker processes
   * of one server hand it to a sibling restarted after the operator unsealed them all.
   */
  copyRootKey(): Uint8Array | undefined {
    return this.#state ? new Uint8Array(this.#state.rootKey) : undefined;
  }

  /**
   * HA: a `standby` barrier is read-only: every write (put, delete, transaction, rotation) throws
   * `ReadOnlyStorageError` before touching storage or the cache, and a performance standby hands
   * such a request to the active server instead. In either role the barrier trusts its cache: a
   * value it holds is served without asking storage. The `active` server is the only writer while
   * it holds the HA lock (it keeps the cache current itself), and on a standby the change feed
   * drops (`forgetCached`) every key another server changes before the change counts as reached.
   * Without a role the cache is checked against what storage holds on every read. The cache
   * starts empty at each change of role.
   */
  setHaRole(role: BarrierHaRole | undefined): void {
    this.#haRole = role;
    this.#reads.trustCache = role !== undefined;
    this.forgetAllCached();
  }

  /** Drops the decrypted value cached for `key` (another server changed it). */
  forgetCached(key: string): void {
    this.#reads.forget(key);
  }

  /** Drops every cached value (a performance standby reloading everything). */
  forgetAllCached(): void {
    this.#reads.forgetAll();
  }

  /**
   * Reads the stored keyring again: another server rotated it (values it writes from now on use
   * the new term), or replaced the root key, which this barrier then holds instead (read from its
   * stored copy, else from the seal: see `openStoredKeyring`). The old keyring is not zeroed (a
   * read may still be using one of its keys); every key it holds is in the new one.
   */
  async reloadKeyring(): Promise<void> {
    const state = this.#unsealed();
    const { keyring, rootKey } = await openStoredKeyring(this.#physical, state, this.#sealedRootKey);
    if (this.#state !== state) {
      keyring.zero();
      if (rootKey !== state.rootKey) rootKey.fill(0);
      throw new SealedError();
    }
    state.keyring = keyring;
    if (rootKey === state.rootKey) return;
    state.rootKey.fill(0);
    state.rootKey = rootKey;
  }

  /**
   * Encrypts `value` as if stored at `label`, without storing it: a snapshot's sealed checksums,
   * which only a server holding this keyring can open.
   */
  sealDetached(label: string, value: Uint8Array): Uint8Array {
    return this.#encrypt(label, value);
  }

  /** Opens what `sealDetached(label, …)` made; `undefined` when this keyring did not make it. */
  openDetached(label: string, sealed: Uint8Array): Uint8Array | undefined {
    const keyring = this.#unsealed().keyring;
    try {
      const entry = keyring.term(entryTerm(label, sealed));
      return entry && decryptEntry(entry.key, label, sealed);
    } catch {
      return undefined;
    }
  }

  /**
   * Seals, runs `replace` (which swaps the store under the barrier), and unseals again with the
   * same root key, reading the keyring the store now holds. When that keyring does not open with
   * this root key (a snapshot of another server), the barrier stays sealed and this throws.
   */
  async reopenAfter(replace: () => Promise<void>): Promise<void> {
    const rootKey = new Uint8Array(this.#unsealed().rootKey);
    try {
      this.seal();
      await replace().finally(() => this.unseal(rootKey));
    } finally {
      rootKey.fill(0);
    }
  }

  /**
   * Adds a new term and makes it active once the new keyring is stored, so no value is ever
   * written under a term that a crash could lose. Old terms keep decrypting old values.
   */
  async rotate(): Promise<KeyStatus> {
    this.#writable();
    const state = this.#unsealed();
    const next = state.keyring.clone();
    const added = next.rotate(this.#random, this.#clock);
    try {
      await this.#persistKeyring(next, state.rootKey);
    } catch (err) {
      added.key.fill(0);
      throw err;
    }
    if (this.#state !== state) {
      added.key.fill(0);
      throw new SealedError();
    }
    state.keyring = next;
    return this.keyStatus();
  }

  /**
   * Replaces the root key: the keyring (unchanged) is stored encrypted with a new random root key,
   * in one transaction with the writes `alsoWrite` makes for it (the seal's entries that keep the
   * new key), so a crash leaves either the old key in force or the new one, never neither. A seal
   * migration to an auto seal does this: whoever held the old unseal shares and a copy of the old
   * storage must not be able to open the new data.
   */
  async rotateRootKey(alsoWrite: (newRootKey: Uint8Array) => Promise<StorageOperation[]>): Promise<void> {
    this.#writable();
    const state = this.#unsealed();
    const newRootKey = this.#random.bytes(KEY_BYTES);
    try {
      await this.#persistKeyring(state.keyring, newRootKey, await alsoWrite(newRootKey));
    } catch (err) {
      newRootKey.fill(0);
      throw err;
    }
    if (this.#state !== state) {
      newRootKey.fill(0);
      throw new SealedError();
    }
    state.rootKey.fill(0);
    state.rootKey = newRootKey;
  }

  /** The active term, when it was installed and how many values it has encrypted. */
  keyStatus(): KeyStatus {
    const { term, installTimeMs, encryptions } = this.#unsealed().keyring.active;
    return { term, installTimeMs, encryptions };
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    this.#unsealed();
    const { value, mayRemember } = await this.#reads.read(key);
    return value === undefined ? undefined : this.#open(key, value, mayRemember);
  }

  /**
   * The value at `key` decoded once (frozen JSON, see `getFrozenJson`): a hot entry is neither
   * decrypted nor parsed again while storage holds the same ciphertext.
   */
  async getDecoded(key: string, decode: (bytes: Uint8Array) => unknown): Promise<unknown> {
    this.#unsealed();
    const { value, mayRemember, decoded: held } = await this.#reads.read(key);
    if (value === undefined) return undefined;
    this.#unsealed(); // the barrier may have been sealed while storage answered
    const kept = held ?? this.#cache.decoded(key, value);
    if (kept !== undefined) return kept;
    const decoded = decode(this.#open(key, value, mayRemember));
    if (mayRemember) this.#cache.rememberDecoded(key, value, decoded);
    return decoded;
  }

  /** The plaintext of `value` read at `key`: from the cache when it holds that exact ciphertext. */
  #open(key: string, value: Uint8Array, mayRemember = true): Uint8Array {
    // Checked again: the barrier may have been sealed while storage answered.
    const keyring = this.#unsealed().keyring;
    const cached = this.#cache.get(key, value);
    if (cached) return cached;
    const term = entryTerm(key, value);
    const entry = keyring.term(term);
    if (!entry) throw new InternalError(`failed to decrypt "${key}": no key for term ${term}`);
    const plaintext = decryptEntry(entry.key, key, value);
    if (plaintext === undefined) throw new InternalError(`failed to decrypt "${key}": message authentication failed`);
    if (mayRemember) this.#cache.remember(key, value, plaintext);
    return plaintext;
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.#writable();
    const encrypted = this.#encrypt(key, value);
    // Remembered now, while `value` is what was encrypted: a read only hits once storage holds `encrypted`.
    this.#cache.remember(key, encrypted, value, 'ciphertext');
    this.#reads.written(key);
    await this.#physical.put(key, encrypted);
  }

  async delete(key: string): Promise<void> {
    this.#unsealed();
    this.#writable();
    this.#cache.forget(key);
    this.#reads.written(key);
    await this.#physical.delete(key);
  }

  async list(prefix: string): Promise<string[]> {
    this.#unsealed();
    return this.#physical.list(prefix);
  }

  /** Encrypts every value first, so a bad one fails the batch before storage sees any of it. */
  async transaction(operations: StorageOperation[]): Promise<void> {
    this.#unsealed();
    this.#writable();
    // Built field by field: a put's `decoded` seed and `uncached` are for the cache, not for storage.
    const encrypted: StorageOperation[] = operations.map((o) =>
      o.op === 'put' ? { op: 'put', key: o.key, value: this.#encrypt(o.key, o.value) } : { op: 'delete', key: o.key },
    );
    operations.forEach((o, i) => {
      this.#reads.written(o.key);
      const written = encrypted[i];
      if (o.op === 'put' && written?.op === 'put' && o.uncached !== true) {
        // The ciphertext is ours; a put with `decoded` (`frozenJsonPut`) gave its bytes up too.
        this.#cache.remember(o.key, written.value, o.value, o.decoded === undefined ? 'ciphertext' : 'both');
        if (o.decoded !== undefined) this.#cache.rememberDecoded(o.key, written.value, o.decoded);
      } else {
        this.#cache.forget(o.key);
      }
    });
    await this.#physical.transaction(encrypted);
  }

  #writable(): void {
    if (this.#haRole === 'standby') throw new ReadOnlyStorageError();
  }

  #unsealed(): Unsealed {
    if (!this.#state) throw new SealedError();
    return this.#state;
  }

  #encrypt(key: string, value: Uint8Array): Uint8Array {
    const active = this.#unsealed().keyring.active;
    if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
    const encrypted = encryptEntry(active.key, active.term, key, this.#random.bytes(NONCE_BYTES), value);
    active.encryptions++;
    return encrypted;
  }

  async #persistKeyring(keyring: Keyring, rootKey: Uint8Array, alsoWrite: StorageOperation[] = []): Promise<void> {
    const json = Buffer.from(keyring.toJson(), 'utf8');
    const keyringValue = encryptEntry(rootKey, KEYRING_ENTRY_TERM, KEYRING_PATH, this.#random.bytes(NONCE_BYTES), json);
    json.fill(0);
    const active = keyring.active;
    const rootKeyValue = encryptEntry(active.key, active.term, ROOT_KEY_PATH, this.#random.bytes(NONCE_BYTES), rootKey);
    for (const key of [KEYRING_PATH, ROOT_KEY_PATH, ...alsoWrite.map((o) => o.key)]) this.#reads.written(key);
    await this.#physical.transaction([
      { op: 'put', key: KEYRING_PATH, value: keyringValue },
      { op: 'put', key: ROOT_KEY_PATH, value: rootKeyValue },
      ...alsoWrite,
    ]);
  }
}

function checkRootKey(rootKey: Uint8Array): void {
  if (rootKey.length !== KEY_BYTES) throw new InvalidRequestError(`invalid key: root key must be ${KEY_BYTES} bytes`);
}
