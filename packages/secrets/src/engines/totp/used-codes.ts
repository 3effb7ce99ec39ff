import { createHash } from 'node:crypto';
import type { Clock } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { getJson, putJson } from '../../logical/storage.js';

/** One used code: refused until `expires_at_ms`. */
interface UsedRecord {
  expires_at_ms: number;
}

const PREFIX = 'used/';
/** How often a mount sweeps out expired records (of deleted keys too): the engine's periodic task. */
export const SWEEP_INTERVAL_MS = 60_000;

export interface UsedCodesDeps {
  storage: Storage;
  clock: Clock;
  /** The per-key lock validation holds; the sweep takes it too, so it never deletes a fresh record. */
  locks: KeyedMutex;
}

/**
 * The replay record of validated codes, kept in the mount's storage (behind the
 * barrier) under `used/<key name>/<SHA-256 of the code>`, so that it survives a restart
 * and holds across servers sharing the storage. Established servers keep it in one
 * process's memory. The code is hashed only to make any submitted text a safe storage
 * key. Expired records are ignored when read and swept by the engine's periodic task
 * (every `SWEEP_INTERVAL_MS`, on the core's scheduler).
 *
 * Callers hold `locks.run(name)` around `isUsed` + `record`. Two servers sharing storage
 * are serialised only by that storage: a code checked on both within the same few
 * milliseconds can pass twice, as the storage has no compare-and-set.
 */
export class UsedCodes {
  readonly #d: UsedCodesDeps;

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
