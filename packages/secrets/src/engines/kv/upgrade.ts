import type { Clock, Logger } from '@ward/base';
import type { Backend, PathMatch } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import {
  decodeJson,
  encodeJson,
  getJson,
  putJson,
  type Storage,
  type StorageOperation,
} from '../../logical/storage.js';
import { rfc3339Precise } from '../../logical/time.js';
import { withNewVersion } from './version-rules.js';
import { DEFAULT_CONFIG, newMetadata, versionKey } from './versioned-store.js';

/**
 * In-place upgrade of a KV version 1 mount to version 2 (`sys/mounts/:path/tune` with
 * `options.version = "2"`): every key's value becomes version 1 of a v2 secret, with metadata.
 *
 * Crash safety rests on one invariant: at the root of a v2 mount's storage only v2 records live
 * (`config`, `metadata/`, `versions/`, and the marker below), so any other key is a v1 key still
 * to upgrade. Each key moves in the same atomic batch that writes its v2 records, so a key is
 * either wholly v1 or wholly v2; a v2 backend starting with v1 keys left (after a crash, on the
 * next unseal or start) carries on. The tune refuses a v1 mount whose keys clash with those names.
 */

/** Records the upgrade's start (and end) in the mount's storage, as established servers do. */
export const UPGRADE_MARKER = 'upgrading';
/** What a v2 mount keeps at its root; nothing else is there once the upgrade is done. */
const V2_ROOT = new Set(['config', 'metadata/', 'versions/', UPGRADE_MARKER]);
/** Keys moved per atomic batch: bounds memory and the size of one storage transaction. */
const BATCH_SIZE = 100;
/** Progress is logged every this many keys. */
const LOG_EVERY = 500;

export const UPGRADING_MESSAGE =
  'Upgrading from non-versioned to versioned data. This backend will be unavailable for a brief period and will resume service shortly.';

interface UpgradeMarker {
  started_time: string;
  done?: boolean;
  finished_time?: string;
  upgraded_keys?: number;
}

/** The v1 keys and folders left at the root of a mount's storage. */
async function v1Roots(storage: Storage): Promise<string[]> {
  return (await storage.list('')).filter((k) => !V2_ROOT.has(k));
}

/**
 * KV v1's check before its mount becomes v2: keys where v2 keeps its records would be taken
 * for v2 records (or lost), so the tune is refused until they are moved.
 */
export async function refuseVersion2Clashes(storage: Storage): Promise<void> {
  const clashes = (await storage.list('')).filter((k) => V2_ROOT.has(k));
  if (clashes.length === 0) return;
  throw new InvalidRequestError(
    `cannot upgrade to version 2: version 2 keeps its own records at ${clashes.map((c) => `"${c}"`).join(', ')}, ` +
      'where this mount holds secrets; move them elsewhere first',
  );
}

interface UpgradeDeps {
  storage: Storage;
  logger: Logger;
  clock: Clock;
}

/**
 * The upgrade of one v2 mount's leftover v1 keys, started with the backend: it first looks for
 * v1 keys (none on an ordinary v2 mount: then it is over at once, having written nothing).
 */
export class KvUpgrade {
  /** True until no v1 key is known to be left: requests to the mount answer 400 meanwhile. */
  active = true;
  #stopping = false;
  /** This server is moving keys: no need to look in storage to know the answer is 400. */
  #moving = false;
  readonly #probed: Promise<boolean>;
  readonly #run: Promise<void>;

  private constructor(private readonly deps: UpgradeDeps) {
    this.#probed = v1Roots(deps.storage).then((roots) => roots.length > 0);
    this.#run = this.#probed
      .then((needed) => (needed ? this.#upgrade() : this.#finish()))
      .catch((err) => {
        // A read-only standby cannot write: it waits for the active server's upgrade (see `check`).
        // Anywhere else the mount stays unavailable and the upgrade resumes when it next starts.
        deps.logger.warn(
          'kv upgrade to version 2 not finished here: the mount answers 400 until no version-1 key is left ' +
            '(a standby waits for the active server; otherwise it resumes when the mount next starts)',
          { err },
        );
      })
      .finally(() => {
        this.#moving = false;
      });
  }

  static start(deps: UpgradeDeps): KvUpgrade {
    return new KvUpgrade(deps);
  }

  /** Throws the established 400 while v1 keys are left (looked up in storage, so a standby sees the end). */
  async check(): Promise<void> {
    if (!(await this.#probed.catch(() => true)) || !this.active) return this.#finish();
    // Listing the root may be costly on a big flat mount: only once no run here will end it.
    if (!this.#moving && (await v1Roots(this.deps.storage)).length === 0) return this.#finish();
    throw new InvalidRequestError(UPGRADING_MESSAGE);
  }

  #finish(): void {
    this.active = false;
  }

  /** Stops after the batch under way (seal, unmount): what is left resumes on the next start. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#run;
  }

  async #upgrade(): Promise<void> {
    this.#moving = true;
    const { storage, logger, clock } = this.deps;
    const previous = await getJson<UpgradeMarker>(storage, UPGRADE_MARKER);
    const marker: UpgradeMarker =
      previous && !previous.done ? previous : { started_time: rfc3339Precise(clock.nowPrecise()) };
    if (marker === previous) logger.info('resuming kv upgrade to version 2', { started_time: marker.started_time });
    else {
      logger.info('upgrading kv mount to version 2');
      await putJson(storage, UPGRADE_MARKER, marker);
    }
    let upgraded = 0;
    // A pass that moves nothing proves none is left (a v1 write still in flight at the tune may land late).
    for (let moved = -1; moved !== 0 && !this.#stopping; ) {
      moved = 0;
      for await (const batch of this.#batches()) {
        await storage.transaction(await this.#moveOps(batch));
        moved += batch.length;
        upgraded += batch.length;
        if (upgraded % LOG_EVERY < batch.length) logger.info('kv upgrade progress', { upgraded_keys: upgraded });
        if (this.#stopping) return;
      }
    }
    if (this.#stopping) return;
    const finished_time = rfc3339Precise(clock.nowPrecise());
    await putJson(storage, UPGRADE_MARKER, { ...marker, done: true, finished_time, upgraded_keys: upgraded });
    this.#finish();
    logger.info('kv upgrade to version 2 finished', { upgraded_keys: upgraded });
  }

  /** Every v1 key, depth first, in batches: one folder's listing is held at a time per level. */
  async *#batches(): AsyncGenerator<string[]> {
    let batch: string[] = [];
    for await (const key of this.#keys('')) {
      batch.push(key);
      if (batch.length === BATCH_SIZE) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async *#keys(prefix: string): AsyncGenerator<string> {
    const { storage } = this.deps;
    const children = prefix === '' ? await v1Roots(storage) : await storage.list(prefix);
    for (const child of children) {
      if (child.endsWith('/')) yield* this.#keys(prefix + child);
      else yield prefix + child;
    }
  }

  /** Per key: its value as version 1 with fresh metadata, and the v1 key gone — in one transaction. */
  async #moveOps(keys: string[]): Promise<StorageOperation[]> {
    const ops: StorageOperation[] = [];
    const now = this.deps.clock.nowPrecise();
    for (const key of keys) {
      const bytes = await this.deps.storage.get(key);
      if (bytes === undefined) continue;
      const { meta, version } = withNewVersion(newMetadata(now), DEFAULT_CONFIG, now);
      ops.push(
        { op: 'put', key: versionKey(key, version), value: encodeJson({ data: decodeJson(bytes) }) },
        { op: 'put', key: `metadata/${key}`, value: encodeJson(meta) },
        { op: 'delete', key },
      );
    }
    return ops;
  }
}

/** `backend` answering the established 400 to every request while `upgrade` is active. */
export function unavailableWhileUpgrading(backend: Backend, upgrade: KvUpgrade): Backend {
  // Once the upgrade is over, requests reach the backend as they would unwrapped.
  const after = <T>(next: () => Promise<T>): Promise<T> => (upgrade.active ? upgrade.check().then(next) : next());
  const guarded = (m: PathMatch): PathMatch => ({
    path: m.path,
    forwardToActive: m.forwardToActive,
    exists: (req) => after(() => m.exists(req)),
    handle: (req) => after(() => m.handle(req)),
  });
  return {
    ...backend,
    match: (path) => {
      const m = backend.match(path);
      return m && upgrade.active ? guarded(m) : m;
    },
    handle: (req) => after(() => backend.handle(req)),
    exists: (req) => after(() => backend.exists(req)),
    cleanup: async () => {
      await upgrade.stop();
      await backend.cleanup?.();
    },
  };
}
