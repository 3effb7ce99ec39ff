import { setTimeout as sleep } from 'node:timers/promises';
import type { IWatchResponse, Watcher } from 'etcd3';
import type { ChangeFeed, StorageChange } from '../change-feed.js';
import { type EtcdStorage, prefixEnd } from './etcd.js';

/** How long to wait before asking etcd again when restarting a cancelled watch failed. */
const RESTART_RETRY_MS = 500;

/**
 * The change feed of an `EtcdStorage`: one etcd watch on the storage prefix. etcd delivers
 * every revision's events in order and resumes a dropped stream from the last revision it
 * delivered, so no change is missed; when it cannot (the history was compacted meanwhile)
 * it cancels the watch, and the feed reports `isEverything` and watches again from now.
 */
export class EtcdChangeFeed implements ChangeFeed {
  readonly #storage: EtcdStorage;
  readonly #prefix: Buffer;
  #handler: ((change: StorageChange) => Promise<void>) | undefined;
  #watcher: Watcher | undefined;
  #queue: Promise<void> = Promise.resolve();
  #isStopped = false;

  constructor(storage: EtcdStorage) {
    this.#storage = storage;
    this.#prefix = Buffer.from(storage.prefix);
  }

  async start(handler: (change: StorageChange) => Promise<void>): Promise<number> {
    this.#handler = handler;
    this.#isStopped = false;
    const revision = await this.#currentRevision();
    await this.#watchAfter(revision);
    return revision;
  }

  async stop(): Promise<void> {
    this.#isStopped = true;
    const watcher = this.#watcher;
    this.#watcher = undefined;
    await watcher?.cancel().catch(() => {});
    await this.#queue;
  }

  writtenRevision(): number {
    return this.#storage.writtenRevision;
  }

  /** The store's revision now (a linearizable read of nothing). */
  async #currentRevision(): Promise<number> {
    const { header } = await this.#storage.client.kv.range({
      key: this.#prefix,
      range_end: prefixEnd(this.#prefix),
      count_only: true,
    });
    return Number(header.revision);
  }

  async #watchAfter(revision: number): Promise<void> {
    const watcher = await this.#storage.client
      .watch()
      .prefix(this.#prefix)
      .startRevision(String(revision + 1))
      .create();
    if (this.#isStopped) {
      await watcher.cancel().catch(() => {});
      return;
    }
    this.#watcher = watcher;
    watcher.on('data', (res) => {
      for (const change of this.#changesOf(res)) this.#deliver(change);
    });
    // A cancelled watch (compaction) cannot resume where it was: start again from now.
    watcher.on('error', () => void this.#restart(watcher));
  }

  /** One change per revision in a response; a progress notice (no events) moves the revision on. */
  #changesOf(res: IWatchResponse): StorageChange[] {
    if (res.events.length === 0) {
      return res.created ? [] : [{ revision: Number(res.header.revision), keys: [], isEverything: false }];
    }
    const byRevision = new Map<number, string[]>();
    for (const { kv } of res.events) {
      const revision = Number(kv.mod_revision);
      const keys = byRevision.get(revision) ?? [];
      keys.push(kv.key.subarray(this.#prefix.length).toString('utf8'));
      byRevision.set(revision, keys);
    }
    return [...byRevision].map(([revision, keys]) => ({ revision, keys, isEverything: false }));
  }

  #deliver(change: StorageChange): void {
    const handler = this.#handler;
    if (!handler || this.#isStopped) return;
    this.#queue = this.#queue.then(() => (this.#isStopped ? undefined : handler(change))).catch(() => {});
  }

  async #restart(cancelled: Watcher): Promise<void> {
    if (this.#watcher !== cancelled) return;
    this.#watcher = undefined;
    await cancelled.cancel().catch(() => {});
    while (!this.#isStopped) {
      try {
        const revision = await this.#currentRevision();
        this.#deliver({ revision, keys: [], isEverything: true });
        await this.#watchAfter(revision);
        return;
      } catch {
        await sleep(RESTART_RETRY_MS);
      }
    }
  }
}
