import { Etcd3, type IOptions, type IRequestOp } from 'etcd3';
import { InternalError } from '../../logical/errors.js';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from '../storage.js';

export interface EtcdStorageOptions {
  /** Client URLs of the cluster's members (`http://` or `https://`). */
  hosts: string[];
  /** The prefix every key is stored under; non-empty, ending in `/`. */
  prefix: string;
  /** TLS: the CA that signed the members' certificates, and this client's own pair (PEM). */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** etcd's own authentication. */
  auth?: { username: string; password: string };
}

/** Keys read per range request when listing, snapshotting or copying: one page in memory at a time. */
const PAGE = 500;
/** Operations per etcd transaction when staging a restore; etcd refuses more than 128 by default. */
const STAGE_BATCH = 100;

/**
 * Storage on an etcd v3 cluster (Raft-replicated): every key lives at `<prefix><key>`, and a
 * write is acknowledged once a quorum has it on disk. A restore is staged beside the prefix, at
 * `<prefix minus its slash>.restore/`, and swapped in under a marker key so that a crash mid-swap
 * is finished on the next start instead of leaving half of each store.
 */
export class EtcdStorage implements StorageBackend {
  readonly #client: Etcd3;
  readonly #live: Buffer;
  readonly #staging: Buffer;
  readonly #swapMarker: Buffer;
  /** The HA lock key, beside the data prefix so snapshots neither carry nor restore it. */
  readonly haLockKey: string;
  /** Finishing an interrupted restore, which every operation waits for. */
  readonly #ready: Promise<void>;
  /** The etcd revision this process's latest write reached (the read-your-writes index). */
  #writtenRevision = 0;

  constructor(options: EtcdStorageOptions) {
    if (!options.prefix.endsWith('/') || options.prefix === '/') {
      throw new InternalError('etcd storage prefix must be non-empty and end in "/"');
    }
    this.#client = new Etcd3(clientOptions(options));
    const base = options.prefix.slice(0, -1);
    this.#live = Buffer.from(options.prefix);
    this.#staging = Buffer.from(`${base}.restore/`);
    this.#swapMarker = Buffer.from(`${base}.restore-swap`);
    this.haLockKey = `${base}.lock`;
    this.#ready = this.#finishInterruptedSwap();
    // Every operation awaits #ready and reports its failure; this only silences the unobserved copy.
    this.#ready.catch(() => {});
  }

  /** The underlying client, for the HA lock and the change feed (which share the connection). */
  get client(): Etcd3 {
    return this.#client;
  }

  /** The prefix every key is stored under. */
  get prefix(): string {
    return this.#live.toString('utf8');
  }

  /** The etcd revision this process's latest write reached; 0 before any. */
  get writtenRevision(): number {
    return this.#writtenRevision;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    await this.#ready;
    const { kvs } = await this.#client.kv.range({ key: this.#liveKey(key) });
    const found = kvs[0];
    // Copied out of gRPC's buffer so a caller may overwrite what it gets.
    return found ? new Uint8Array(found.value) : undefined;
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    await this.transaction([{ op: 'put', key, value }]);
  }

  async delete(key: string): Promise<void> {
    await this.transaction([{ op: 'delete', key }]);
  }

  /**
   * Reads keys only (never values), a page at a time; on meeting a grandchild `c/...` it lists
   * `c/` and continues from the first key after every key below it (`'0'` follows `/`).
   */
  async list(prefix: string): Promise<string[]> {
    await this.#ready;
    const children: string[] = [];
    const end = prefixEnd(this.#liveKey(prefix));
    let from = this.#liveKey(prefix);
    const skip = this.#live.length + Buffer.byteLength(prefix);
    for (;;) {
      const { kvs, more } = await this.#client.kv.range({ key: from, range_end: end, keys_only: true, limit: PAGE });
      let next: Buffer | undefined;
      for (const { key } of kvs) {
        if (next && Buffer.compare(key, next) < 0) continue;
        const rest = key.subarray(skip).toString('utf8');
        const slash = rest.indexOf('/');
        if (slash === -1) {
          children.push(rest);
          next = undefined;
          continue;
        }
        children.push(rest.slice(0, slash + 1));
        next = this.#liveKey(`${prefix}${rest.slice(0, slash)}0`);
      }
      const last = kvs.at(-1);
      if (!more || !last) return children;
      from = next && Buffer.compare(next, last.key) > 0 ? next : Buffer.concat([last.key, Buffer.of(0)]);
    }
  }

  /**
   * One etcd transaction. etcd refuses a transaction naming a key twice, so only each key's last
   * operation is sent: applying them in order leaves exactly that result. Values are checked
   * before anything is sent, so a bad one writes nothing.
   */
  async transaction(operations: StorageOperation[]): Promise<void> {
    const last = new Map<string, StorageOperation>();
    for (const o of operations) {
      if (o.op === 'put') checkValue(o.key, o.value);
      last.delete(o.key);
      last.set(o.key, o);
    }
    await this.#ready;
    if (last.size === 0) return;
    const success: IRequestOp[] = [...last.values()].map((o) =>
      o.op === 'put'
        ? { request_put: { key: this.#liveKey(o.key), value: Buffer.from(o.value) } }
        : { request_delete_range: { key: this.#liveKey(o.key) } },
    );
    const { header } = await this.#client.kv.txn({ compare: [], success });
    this.#wrote(header.revision);
  }

  /** Every entry at one etcd revision, read a page at a time at that revision. */
  async openSnapshot(): Promise<StorageSnapshot> {
    await this.#ready;
    const end = prefixEnd(this.#live);
    const head = await this.#client.kv.range({ key: this.#live, range_end: end, count_only: true });
    const revision = head.header.revision;
    const live = this.#live;
    const skip = live.length;
    const pages = (from: Buffer) => this.#client.kv.range({ key: from, range_end: end, limit: PAGE, revision });
    return {
      count: Number(head.count),
      async *entries() {
        for await (const kv of pageThrough(pages, live)) {
          yield { key: kv.key.subarray(skip).toString('utf8'), value: new Uint8Array(kv.value) };
        }
      },
      async close() {},
    };
  }

  /**
   * Stages the entries beside the live prefix; only once every one is checked and written does
   * the swap begin, under a marker that makes the next start finish it after a crash.
   */
  async replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void> {
    await this.#ready;
    await this.#client.kv.deleteRange({ key: this.#staging, range_end: prefixEnd(this.#staging) });
    try {
      let batch: IRequestOp[] = [];
      for await (const { key, value } of entries) {
        if (typeof key !== 'string') throw new InternalError('storage key must be a string');
        checkValue(key, value);
        const staged = Buffer.concat([this.#staging, Buffer.from(key)]);
        batch.push({ request_put: { key: staged, value: Buffer.from(value) } });
        if (batch.length < STAGE_BATCH) continue;
        await this.#client.kv.txn({ compare: [], success: batch });
        batch = [];
      }
      if (batch.length > 0) await this.#client.kv.txn({ compare: [], success: batch });
    } catch (err) {
      await this.#client.kv.deleteRange({ key: this.#staging, range_end: prefixEnd(this.#staging) });
      throw err;
    }
    await this.#client.kv.put({ key: this.#swapMarker, value: Buffer.of(1) });
    await this.#swap();
  }

  async close(): Promise<void> {
    await this.#ready.catch(() => {});
    this.#client.close();
  }

  #liveKey(key: string): Buffer {
    return Buffer.concat([this.#live, Buffer.from(key)]);
  }

  async #finishInterruptedSwap(): Promise<void> {
    const { kvs } = await this.#client.kv.range({ key: this.#swapMarker, keys_only: true });
    if (kvs.length > 0) await this.#swap();
  }

  /** Empties the live prefix, copies the staged entries in, then drops the stage and the marker. Idempotent. */
  async #swap(): Promise<void> {
    await this.#client.kv.deleteRange({ key: this.#live, range_end: prefixEnd(this.#live) });
    const stageEnd = prefixEnd(this.#staging);
    const pages = (from: Buffer) => this.#client.kv.range({ key: from, range_end: stageEnd, limit: STAGE_BATCH });
    let batch: IRequestOp[] = [];
    for await (const kv of pageThrough(pages, this.#staging)) {
      const live = Buffer.concat([this.#live, kv.key.subarray(this.#staging.length)]);
      batch.push({ request_put: { key: live, value: kv.value } });
      if (batch.length < STAGE_BATCH) continue;
      await this.#client.kv.txn({ compare: [], success: batch });
      batch = [];
    }
    if (batch.length > 0) await this.#client.kv.txn({ compare: [], success: batch });
    const { header } = await this.#client.kv.txn({
      compare: [],
      success: [
        { request_delete_range: { key: this.#staging, range_end: stageEnd } },
        { request_delete_range: { key: this.#swapMarker } },
      ],
    });
    this.#wrote(header.revision);
  }

  #wrote(revision: string): void {
    this.#writtenRevision = Math.max(this.#writtenRevision, Number(revision));
  }
}

type Page = { kvs: { key: Buffer; value: Buffer }[]; more: boolean };

/** Every key/value from `start` on, one range request per page; `fetch` fixes the range end and revision. */
async function* pageThrough(fetch: (from: Buffer) => Promise<Page>, start: Buffer) {
  let from = start;
  for (;;) {
    const { kvs, more } = await fetch(from);
    yield* kvs;
    const last = kvs.at(-1);
    if (!more || !last) return;
    from = Buffer.concat([last.key, Buffer.of(0)]);
  }
}

/** The first key after every key starting with `prefix` (etcd's range_end for a prefix). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if ((end[i] as number) < 0xff) {
      end[i] = (end[i] as number) + 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.of(0);
}

function clientOptions(options: EtcdStorageOptions): IOptions {
  const client: IOptions = { hosts: options.hosts };
  const { tls, auth } = options;
  if (tls?.ca || tls?.cert || options.hosts.some((h) => h.startsWith('https:'))) {
    client.credentials = { rootCertificate: tls?.ca as Buffer, privateKey: tls?.key, certChain: tls?.cert };
  }
  if (auth) client.auth = auth;
  return client;
}

function checkValue(key: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
  return value;
}
