import * as crypto from 'node:crypto';
import type { Clock } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { encodeJson, getJson, type StorageOperation } from '../../logical/storage.js';
import { WrittenRecords } from './written-records.js';

/** One used code: refused until `expires_at_ms`. */
interface UsedRecord {
  expires_at_ms: number;
}

const PREFIX = 'used/';
/**
 * How often a mount sweeps out expired records (of deleted keys too): the engine's periodic task.
 * Often, so that records go soon after they expire; a sweep only deletes what has expired since the
 * last one, so its work does not grow with its frequency.
 */
export const SWEEP_INTERVAL_MS = 10_000;
/**
 * Every this many sweeps (the first, 10 s after start, included), a sweep lists and reads every
 * record in storage: the records of an earlier run of this server, or of another sharing the
 * storage. Hourly after the first; the first comes early, while this server has written few.
 */
export const FULL_SWEEP_EVERY = 360;
/** Deletes per storage transaction in a sweep: one commit for many records, yet bounded. */
const DELETES_PER_TRANSACTION = 256;

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
 * A sweep usually looks only at the records this server wrote (`WrittenRecords`), reading each
 * once its time is up and deleting it if storage still holds an expired record there: listing
 * and reading every record cost as much CPU as the validations that wrote them (with 3,000
 * validations a second, 180,000 records a minute). One sweep in `FULL_SWEEP_EVERY`, the first
 * after start among them, still lists and reads them all: at 3,000 validations a second, a first
 * full sweep a minute after start listed 180,000 records 65 times in the dev store (2 s of CPU).
 *
 * Callers hold `locks.run(name)` around `isUsed` + `record`. Two servers sharing storage
 * are serialised only by that storage: a code checked on both within the same few
 * milliseconds can pass twice, as the storage has no compare-and-set.
 */
export class UsedCodes {
  readonly #d: UsedCodesDeps;
  readonly #written = new WrittenRecords();
  #sweeps = 0;

  constructor(deps: UsedCodesDeps) {
    this.#d = deps;
  }

  /** Whether `code` was checked against key `name` and is still refused. */
  async isUsed(name: string, code: string): Promise<boolean> {
    return this.#isLive(await getJson<UsedRecord>(this.#d.storage, recordKey(name, code)));
  }

  /** Refuses `code` for key `name` for the next `ttlSeconds`. */
  async record(name: string, code: string, ttlSeconds: number): Promise<void> {
    const key = recordKey(name, code);
    const expires_at_ms = this.#d.clock.now() + ttlSeconds * 1000;
    // Uncached: the barrier would keep every record decrypted, for nothing but the sweep to read it.
    const value = encodeJson({ expires_at_ms } satisfies UsedRecord);
    await this.#d.storage.transaction([{ op: 'put', key, value, uncached: true }]);
    this.#written.add(name, key, expires_at_ms);
  }

  /** Deletes expired records: those this server wrote, or every one in storage (see the class comment). */
  async sweep(): Promise<void> {
    const full = this.#sweeps++ % FULL_SWEEP_EVERY === 0;
    if (full) await this.#sweepStored();
    else await this.#sweepWritten();
  }

  async #sweepWritten(): Promise<void> {
    for (const name of this.#written.names()) {
      await this.#d.locks.run(name, () => this.#deleteExpired(this.#written.takeExpired(name, this.#d.clock.now())));
    }
  }

  /** Every record in storage, one key name at a time under its lock (names of deleted keys too). */
  async #sweepStored(): Promise<void> {
    const { storage, locks } = this.#d;
    for (const dir of await storage.list(PREFIX)) {
      if (!dir.endsWith('/')) continue;
      const name = dir.slice(0, -1);
      const prefix = `${PREFIX}${dir}`;
      await locks.run(name, async () => this.#deleteExpired((await storage.list(prefix)).map((hash) => prefix + hash)));
    }
  }

  /** Deletes those of `keys` whose record is expired or gone; the caller holds their name's lock. */
  async #deleteExpired(keys: string[]): Promise<void> {
    const { storage } = this.#d;
    const expired: StorageOperation[] = [];
    for (const key of keys) {
      if (!this.#isLive(await getJson<UsedRecord>(storage, key))) expired.push({ op: 'delete', key });
    }
    for (let i = 0; i < expired.length; i += DELETES_PER_TRANSACTION) {
      await storage.transaction(expired.slice(i, i + DELETES_PER_TRANSACTION));
    }
  }

  #isLive(record: UsedRecord | undefined): boolean {
    return record !== undefined && record.expires_at_ms > this.#d.clock.now();
  }
}

function recordKey(name: string, code: string): string {
  return `${PREFIX}${name}/${sha256Hex(code)}`;
}

/**
 * SHA-256 of UTF-8 `text` in hex. `crypto.hash` (Node 20.12 and later) makes no Hash object:
 * 1 µs against 3–5 for `createHash`, on every validation.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
