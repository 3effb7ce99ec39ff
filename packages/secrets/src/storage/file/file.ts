import { link, mkdir, open, readdir, readFile, readlink, rename, rm, rmdir, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InternalError } from '../../logical/errors.js';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from '../storage.js';
import { StorageUnusableError } from '../storage-errors.js';
import { makeDirDurably, removeFileDurably, syncDir, writeFileDurably } from './durable-fs.js';
import { decodeJournal, encodeJournal } from './file-journal.js';
import { keyLocation, prefixDirs } from './file-layout.js';
import { listDir, walkInKeyOrder } from './file-walk.js';

export interface FileStorageOptions {
  /** The directory that holds everything (created, mode 0700, when missing). */
  path: string;
}

/** The symlink naming the live tree; replacing it is how a restore swaps in a whole new tree at once. */
const CURRENT = 'data';
/** A transaction's operations while they are applied; replayed at open if a crash interrupted them. */
const JOURNAL = '.transaction';
/** How many files a restore writes and flushes at once. */
const RESTORE_PARALLEL = 32;

/**
 * One file per key under a directory (the established single-server backend, `storage "file"`).
 * Every write is crash-safe: written to a temporary file, flushed, renamed over the old one, and
 * the directory flushed. A transaction of several operations is first written to a journal, so a
 * crash part-way is completed at the next open. Writes are serialised in this process; only one
 * server may use a directory at a time.
 *
 * Layout: `<path>/data` is a symlink to `<path>/tree-<n>`, which holds the keys (see file-layout.ts).
 */
export class FileStorage implements StorageBackend {
  readonly #root: string;
  #tree = '';
  #generation = 0;
  #temps = 0;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #ready: Promise<void>;

  constructor(options: FileStorageOptions) {
    this.#root = resolve(options.path);
    this.#ready = this.#open();
    // Every operation awaits #ready and reports a failed open itself.
    this.#ready.catch(() => {});
  }

  /** A store whose directory is usable and repaired; one that is not is a `StorageUnusableError` naming it. */
  static async open(options: FileStorageOptions): Promise<FileStorage> {
    const storage = new FileStorage(options);
    try {
      await storage.#ready;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new StorageUnusableError(`storage "file": cannot use ${storage.#root}: ${reason}`, { cause: err });
    }
    return storage;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    await this.#ready;
    try {
      return new Uint8Array(await readFile(this.#fileOf(key)));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    const copy = copyValue(key, value);
    await this.#exclusive(() => this.#put(key, copy));
  }

  async delete(key: string): Promise<void> {
    await this.#exclusive(() => this.#delete(key));
  }

  async list(prefix: string): Promise<string[]> {
    await this.#ready;
    return listDir(join(this.#tree, ...prefixDirs(prefix)));
  }

  async transaction(operations: StorageOperation[]): Promise<void> {
    // Validate (and copy) everything first: a bad operation anywhere leaves the store as it was.
    const staged = operations.map((o) => (o.op === 'put' ? { ...o, value: copyValue(o.key, o.value) } : o));
    if (staged.length === 0) return;
    await this.#exclusive(async () => {
      if (staged.length === 1) return this.#apply(staged);
      const journal = join(this.#root, JOURNAL);
      await writeFileDurably(journal, `${journal}.tmp`, encodeJournal(staged));
      await this.#apply(staged);
      await removeFileDurably(journal);
    });
  }

  /**
   * Hard-links every file of the live tree into a private directory: writes replace files by
   * rename and deletes unlink them, so the links keep the entries as of now without copying a byte.
   */
  async openSnapshot(): Promise<StorageSnapshot> {
    const view = join(this.#root, `.snapshot-${this.#temps++}`);
    const count = await this.#exclusive(() => linkTree(this.#tree, view));
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await rm(view, { recursive: true, force: true });
    };
    return {
      count,
      async *entries() {
        try {
          yield* walkInKeyOrder(view, '');
        } finally {
          await close();
        }
      },
      close,
    };
  }

  /** Builds a new tree beside the live one, flushes it, then swaps the `data` symlink in one rename. */
  async replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void> {
    await this.#exclusive(async () => {
      const name = `tree-${++this.#generation}`;
      const tree = join(this.#root, name);
      const inFlight: Promise<void>[] = [];
      try {
        await mkdir(tree, { mode: 0o700 });
        const dirs = new Set<string>([tree]);
        for await (const { key, value } of entries) {
          if (typeof key !== 'string') throw new InternalError('storage key must be a string');
          const bytes = copyValue(key, value);
          const { dirs: parts, file } = keyLocation(key);
          const dir = join(tree, ...parts);
          if (!dirs.has(dir)) {
            await mkdir(dir, { recursive: true, mode: 0o700 });
            for (let i = 1; i <= parts.length; i++) dirs.add(join(tree, ...parts.slice(0, i)));
          }
          inFlight.push(writeAndSync(join(dir, file), bytes));
          // Flushing files one by one would make a large restore take a disk round trip per entry.
          if (inFlight.length >= RESTORE_PARALLEL) await Promise.all(inFlight.splice(0));
        }
        await Promise.all(inFlight.splice(0));
        for (const dir of dirs) await syncDir(dir);
        const next = join(this.#root, `.${CURRENT}-next`);
        await rm(next, { force: true });
        await symlink(name, next);
        await rename(next, join(this.#root, CURRENT));
        await syncDir(this.#root);
      } catch (err) {
        await Promise.allSettled(inFlight);
        await rm(tree, { recursive: true, force: true });
        throw err;
      }
      const old = this.#tree;
      this.#tree = tree;
      await rm(old, { recursive: true, force: true });
    });
  }

  async close(): Promise<void> {
    await this.#queue.catch(() => {});
  }

  /** Opens (or creates) the directory and repairs what a crash left: stale trees and views, a journal. */
  async #open(): Promise<void> {
    await mkdir(this.#root, { recursive: true, mode: 0o700 });
    let current: string;
    try {
      current = await readlink(join(this.#root, CURRENT));
    } catch (err) {
      if (!isMissing(err)) throw err;
      current = 'tree-0';
      await mkdir(join(this.#root, current), { recursive: true, mode: 0o700 });
      await symlink(current, join(this.#root, CURRENT));
      await syncDir(this.#root);
    }
    this.#tree = join(this.#root, current);
    for (const entry of await readdir(this.#root)) {
      const generation = /^tree-(\d+)$/.exec(entry)?.[1];
      if (generation !== undefined) this.#generation = Math.max(this.#generation, Number(generation));
      const isStale = (generation !== undefined && entry !== current) || entry.startsWith('.snapshot-');
      if (isStale) await rm(join(this.#root, entry), { recursive: true, force: true });
    }
    const journal = join(this.#root, JOURNAL);
    const pending = await readFile(journal).catch((err) => (isMissing(err) ? undefined : Promise.reject(err)));
    if (pending) {
      await this.#apply(decodeJournal(pending));
      await removeFileDurably(journal);
    }
  }

  /** Runs `fn` after every earlier write finished (and after the open); failures stay with their caller. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => {
      await this.#ready;
      return fn();
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async #apply(operations: StorageOperation[]): Promise<void> {
    for (const o of operations) {
      if (o.op === 'put') await this.#put(o.key, o.value);
      else await this.#delete(o.key);
    }
  }

  async #put(key: string, value: Uint8Array): Promise<void> {
    const { dirs, file } = keyLocation(key);
    const dir = join(this.#tree, ...dirs);
    await makeDirDurably(dir);
    await writeFileDurably(join(dir, file), join(dir, `.tmp-${this.#temps++}`), value);
  }

  /** Removes the key's file, then every directory it leaves empty (as the established backend does). */
  async #delete(key: string): Promise<void> {
    const { dirs, file } = keyLocation(key);
    if (!(await removeFileDurably(join(this.#tree, ...dirs, file)).catch(ignoreMissing))) return;
    for (let i = dirs.length; i > 0; i--) {
      try {
        await rmdir(join(this.#tree, ...dirs.slice(0, i)));
      } catch {
        return; // not empty (or gone): the folders above are not empty either
      }
    }
  }

  #fileOf(key: string): string {
    const { dirs, file } = keyLocation(key);
    return join(this.#tree, ...dirs, file);
  }
}

/** Mirrors `from` as directories of hard links under `to`; returns how many files it linked. */
async function linkTree(from: string, to: string): Promise<number> {
  await mkdir(to, { mode: 0o700 });
  let count = 0;
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) count += await linkTree(join(from, entry.name), join(to, entry.name));
    else if (entry.name.startsWith('_')) {
      await link(join(from, entry.name), join(to, entry.name));
      count++;
    }
  }
  return count;
}

async function writeAndSync(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function copyValue(key: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
  return new Uint8Array(value);
}

/** A key under a path where a key (not a folder) is, or nothing at all. */
function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function ignoreMissing(err: unknown): false {
  if (isMissing(err)) return false;
  throw err;
}
