import { createHash } from 'node:crypto';
import type { Clock, Logger } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { getJson, putJson } from '../../logical/storage.js';

/** One used code: refused until `expires_at_ms`. */
interface UsedRecord {
  expires_at_ms: number;
}

const PREFIX = 'used/';
/** How often, at most, a mount sweeps out expired records (of deleted keys too). */
export const SWEEP_INTERVAL_MS = 60_000;

export interface UsedCodesDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** The per-key lock validation holds; the sweep takes it too, so it never deletes a fresh record. */
  locks: KeyedMutex;
}

/**
 * The replay record of validated codes, kept in the mount's storage (behind the
 * barrier) under `used/<key name>/<SHA-256 of the code>`, so that it survives a restart
 * and holds across servers sharing the storage. Established servers keep it in one
 * process's memory. The code is hashed only to make any submitted text a safe storage
 * key. Expired records are ignored when read and swept lazily: at most once per
 * `SWEEP_INTERVAL_MS`, in the background, started by a validation.
 *
 * Callers hold `locks.run(name)` around `isUsed` + `record`. Two servers sharing storage
 * are serialised only by that storage: a code checked on both within the same few
 * milliseconds can pass twice, as the storage has no compare-and-set.
 */
export class UsedCodes {
  readonly #d: UsedCodesDeps;
  #nextSweepAtMs = 0;
  #sweeping: Promise<void> | undefined;

  constructor(deps: UsedCodesDeps) {
    this.#d = deps;
  }

  /** Whether `code` was checked against key `name` and is still refused. */
  async isUsed(name: string, code: string): Promise<boolean> {
    const record = await getJson<UsedRecord>(this.#d.storage, recordKey(name, code));
    return record !== undefined && record.expires_at_ms > this.#d.clock.now();
  }

  /** Refuses `code` for key `name` for the next `ttlSeconds`. */
  async record(name: string, code: string, ttlSeconds: number): Promise<void> {
    const expires_at_ms = this.#d.clock.now() + ttlSeconds * 1000;
    await putJson(this.#d.storage, recordKey(name, code), { expires_at_ms } satisfies UsedRecord);
    this.#sweepIfDue();
  }

  /** Waits for a sweep in progress (called when the mount goes away or the server seals). */
  async close(): Promise<void> {
    await this.#sweeping;
  }

  #sweepIfDue(): void {
    const now = this.#d.clock.now();
    if (this.#sweeping || now < this.#nextSweepAtMs) return;
    this.#nextSweepAtMs = now + SWEEP_INTERVAL_MS;
    this.#sweeping = this.sweep()
      .catch((err: unknown) => this.#d.logger.warn('totp: sweeping used codes failed', { err }))
      .finally(() => {
        this.#sweeping = undefined;
      });
  }

  /** Deletes every expired record of the mount, one key name at a time under its lock. */
  async sweep(): Promise<void> {
    for (const dir of await this.#d.storage.list(PREFIX)) {
      if (!dir.endsWith('/')) continue;
      const name = dir.slice(0, -1);
      await this.#d.locks.run(name, () => this.#prune(name));
    }
  }

  async #prune(name: string): Promise<void> {
    const { storage, clock } = this.#d;
    const prefix = `${PREFIX}${name}/`;
    for (const hash of await storage.list(prefix)) {
      const record = await getJson<UsedRecord>(storage, prefix + hash);
      if (record && record.expires_at_ms <= clock.now()) await storage.delete(prefix + hash);
    }
  }
}

function recordKey(name: string, code: string): string {
  return `${PREFIX}${name}/${createHash('sha256').update(code, 'utf8').digest('hex')}`;
}
