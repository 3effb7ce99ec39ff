import type { Etcd3, Lease, Watcher } from 'etcd3';
import { InternalError } from '../../logical/errors.js';

export interface EtcdHaLockOptions {
  client: Etcd3;
  /** The lock key; outside the data prefix, so snapshots neither carry nor restore it. */
  key: string;
  /** The lease's TTL: how long after its holder dies (no more keep-alives) the lock frees itself. */
  ttlSeconds: number;
  /** What the holder advertises to the others while it holds the lock (its addresses, as JSON). */
  value: string;
}

/**
 * Leader election for HA: the lock is a key created with `create_revision == 0` (nobody holds it)
 * under a lease this server keeps alive. When the holder dies its keep-alives stop and etcd deletes
 * the key at most `ttlSeconds` later; when it steps down it revokes the lease and the key goes at
 * once. A waiting server watches the key and tries again on its deletion.
 */
export class EtcdHaLock {
  readonly #o: EtcdHaLockOptions;
  readonly #lease: Lease;
  #watcher: Watcher | undefined;
  #isClosed = false;
  #wake: (() => void) | undefined;

  constructor(options: EtcdHaLockOptions) {
    this.#o = options;
    this.#lease = options.client.lease(options.ttlSeconds, { autoKeepAlive: true });
    // A lost lease is reported through onLost; this keeps it from being an unhandled 'error'.
    this.#lease.on('lost', () => {});
  }

  /** Resolves once this server holds the lock; rejects if the lock is released or closed meanwhile. */
  async acquire(): Promise<void> {
    const { client, key, value } = this.#o;
    const leaseId = await this.#lease.grant();
    for (;;) {
      if (this.#isClosed) throw new InternalError('HA lock released while waiting for it');
      const attempt = await client
        .if(key, 'Create', '==', 0)
        .then(client.put(key).value(value).lease(leaseId))
        .commit();
      if (attempt.succeeded) return;
      await this.#untilDeleted(String(BigInt(attempt.header.revision) + 1n));
    }
  }

  /** What the current holder advertises, or `undefined` when nobody holds the lock. */
  async holder(): Promise<string | undefined> {
    return (await this.#o.client.get(this.#o.key).string()) ?? undefined;
  }

  /** Calls `handler` if the lease is lost (etcd unreachable past the TTL): this server must stop acting as active. */
  onLost(handler: () => void): void {
    this.#lease.on('lost', handler);
  }

  /** Steps down (or stops waiting): revokes the lease, so the key goes at once and another server takes over. */
  async release(): Promise<void> {
    this.#isClosed = true;
    this.#wake?.();
    await this.#watcher?.cancel();
    if (!this.#lease.revoked()) await this.#lease.revoke().catch(() => {});
  }

  /** Waits until the lock key is deleted at or after `revision` (or until release). */
  async #untilDeleted(revision: string): Promise<void> {
    const watcher = await this.#o.client.watch().key(this.#o.key).startRevision(revision).create();
    this.#watcher = watcher;
    try {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        watcher.on('delete', () => resolve());
        if (this.#isClosed) resolve();
      });
    } finally {
      this.#wake = undefined;
      this.#watcher = undefined;
      await watcher.cancel();
    }
  }
}
