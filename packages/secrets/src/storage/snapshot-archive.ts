import { createHash, timingSafeEqual } from 'node:crypto';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { create as createTar, extract as extractTar } from 'tar';
import { InvalidRequestError } from '../logical/errors.js';
import { decodeRecords, writeRecords } from './snapshot-records.js';
import type { StorageEntry, StorageSnapshot } from './storage.js';

/** What `meta.json` says about a snapshot. */
export interface SnapshotMeta {
  /** Format of this archive; a reader refuses versions it does not know. */
  version: number;
  created_at: string;
  /** The barrier's active key term when the snapshot was taken. */
  key_term: number;
  /** Number of entries in `state.bin`. */
  count: number;
  /** Bytes of `state.bin`. */
  size: number;
}

export const SNAPSHOT_FORMAT_VERSION = 1;

/** Seals and opens the checksum file with the server's keyring, proving which keys a snapshot belongs to. */
export interface SumsSeal {
  seal(sums: Uint8Array): Uint8Array;
  /** The sums, or `undefined` when `sealed` was not made with this keyring. */
  open(sealed: Uint8Array): Uint8Array | undefined;
}

const META = 'meta.json';
const STATE = 'state.bin';
const SUMS = 'SHA256SUMS';
const SEALED_SUMS = 'SHA256SUMS.sealed';
const MEMBERS = [META, STATE, SUMS, SEALED_SUMS];
/** How much of `state.bin` is read at a time while it is archived or hashed. */
const READ_SLICE_BYTES = 1024 * 1024;
/** Everything but `state.bin` is small; a larger member is not one this server wrote. */
const SMALL_MEMBER_BYTES = 8192;

/**
 * Writes the snapshot as a gzip tar (`meta.json`, `state.bin`, `SHA256SUMS`, `SHA256SUMS.sealed`).
 * `state.bin` is spooled to a private temporary directory first (a tar header needs its size), so
 * memory holds one entry at a time; the directory is removed once the archive has been read or dropped.
 */
export async function writeSnapshotArchive(
  snapshot: StorageSnapshot,
  info: { createdAt: string; keyTerm: number },
  sums: Pick<SumsSeal, 'seal'>,
): Promise<Readable> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-snapshot-'));
  try {
    const state = await writeRecords(snapshot.entries(), join(dir, STATE));
    const meta: SnapshotMeta = {
      version: SNAPSHOT_FORMAT_VERSION,
      created_at: info.createdAt,
      key_term: info.keyTerm,
      count: state.count,
      size: state.size,
    };
    const metaBytes = Buffer.from(`${JSON.stringify(meta)}\n`);
    const sumsText = Buffer.from(`${sha256(metaBytes)}  ${META}\n${state.sha256}  ${STATE}\n`);
    await writeFile(join(dir, META), metaBytes, { mode: 0o600 });
    await writeFile(join(dir, SUMS), sumsText, { mode: 0o600 });
    await writeFile(join(dir, SEALED_SUMS), sums.seal(sumsText), { mode: 0o600 });
    // tar reads a member in slices of up to maxReadSize (16 MiB by default): each slice is a buffer
    // held until gzip has taken it, which showed as tens of MB of the server's memory per snapshot.
    // Node's own gzip stream compresses off the event loop with backpressure, in 16 KiB chunks;
    // tar's built-in one compresses each slice at once and joins the output into one more buffer.
    const archive = createTar({ cwd: dir, portable: true, maxReadSize: READ_SLICE_BYTES }, MEMBERS);
    const out = createGzip();
    // A failure on either side destroys both: the reader of `out` sees it as an error.
    pipeline(archive as unknown as AsyncIterable<Buffer>, out).catch(() => undefined);
    out.once('close', () => void rm(dir, { recursive: true, force: true }));
    return out;
  } catch (err) {
    await snapshot.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** A received snapshot whose sums were checked: its entries can be read (once) from disk. */
export interface VerifiedSnapshot {
  meta: SnapshotMeta;
  entries(): AsyncIterable<StorageEntry>;
  /** Removes the unpacked files. */
  dispose(): Promise<void>;
}

/**
 * Unpacks an uploaded snapshot into a private temporary directory and checks it: only the four
 * known members, the sealed sums open with this keyring (unless `seal` is omitted, for a forced
 * restore) and match the plain sums, and every member's SHA-256 matches. Any failure is a 400.
 */
export async function readSnapshotArchive(
  body: AsyncIterable<Uint8Array>,
  seal: Pick<SumsSeal, 'open'> | undefined,
): Promise<VerifiedSnapshot> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-restore-'));
  // A refused upload can still have a member being written when the refusal arrives (the unpacker's
  // file stream closes after the pipeline rejects); rm's retries wait for it instead of failing ENOTEMPTY.
  const dispose = () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
  try {
    await unpack(body, dir);
    const sumsText = await readSmall(dir, SUMS);
    if (seal) {
      const opened = seal.open(await readSmall(dir, SEALED_SUMS));
      if (!opened || opened.length !== sumsText.length || !timingSafeEqual(opened, sumsText)) {
        throw new InvalidRequestError(
          'could not verify hash file, possibly the snapshot is using a different set of unseal keys; use the snapshot-force API to bypass this check',
        );
      }
    }
    const sums = parseSums(sumsText.toString('utf8'));
    const metaBytes = await readSmall(dir, META);
    checkSum(sums, META, sha256(metaBytes));
    checkSum(sums, STATE, await sha256OfFile(join(dir, STATE)));
    const meta = parseMeta(metaBytes);
    return { meta, entries: () => countedEntries(join(dir, STATE), meta.count), dispose };
  } catch (err) {
    // The refusal is what the client must hear; a cleanup failure must not turn it into a 500.
    await dispose().catch(() => undefined);
    throw err;
  }
}

async function unpack(body: AsyncIterable<Uint8Array>, dir: string): Promise<void> {
  const unexpected: string[] = [];
  const extractor = extractTar({
    cwd: dir,
    strict: true,
    filter: (path, entry) => {
      const isKnown = MEMBERS.includes(path) && 'type' in entry && entry.type === 'File';
      if (!isKnown) unexpected.push(path);
      return isKnown;
    },
  });
  try {
    await pipeline(Readable.from(body), extractor as unknown as NodeJS.WritableStream);
  } catch (err) {
    throw new InvalidRequestError(`failed to decompress snapshot: ${(err as Error).message}`);
  }
  if (unexpected.length > 0) throw new InvalidRequestError(`unexpected file "${unexpected[0]}" in snapshot`);
}

async function readSmall(dir: string, name: string): Promise<Buffer> {
  const path = join(dir, name);
  const size = await stat(path).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined || (size === 0 && name === SEALED_SUMS)) {
    throw new InvalidRequestError(`failed checking integrity of snapshot: file missing for ${name}`);
  }
  if (size > SMALL_MEMBER_BYTES)
    throw new InvalidRequestError(`snapshot member ${name} is too large, possible truncation`);
  return readFile(path);
}

function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
    if (match) sums.set(match[2] as string, match[1] as string);
  }
  return sums;
}

function checkSum(sums: Map<string, string>, name: string, actual: string): void {
  const expected = sums.get(name);
  if (expected === undefined)
    throw new InvalidRequestError(`failed checking integrity of snapshot: list missing hash for ${name}`);
  if (expected !== actual)
    throw new InvalidRequestError(`failed checking integrity of snapshot: hash check failed for ${name}`);
}

function parseMeta(bytes: Buffer): SnapshotMeta {
  let meta: Partial<SnapshotMeta>;
  try {
    meta = JSON.parse(bytes.toString('utf8')) as Partial<SnapshotMeta>;
  } catch {
    throw new InvalidRequestError('snapshot metadata is not JSON');
  }
  if (meta.version !== SNAPSHOT_FORMAT_VERSION)
    throw new InvalidRequestError(`unsupported snapshot version ${meta.version}`);
  if (!Number.isSafeInteger(meta.count)) throw new InvalidRequestError('snapshot metadata has no entry count');
  return meta as SnapshotMeta;
}

/** The entries, failing at the end when their number differs from the metadata's. */
async function* countedEntries(path: string, expected: number): AsyncGenerator<StorageEntry> {
  let seen = 0;
  for await (const entry of decodeRecords(path)) {
    seen++;
    yield entry;
  }
  if (seen !== expected) throw new InvalidRequestError(`snapshot holds ${seen} entries, its metadata says ${expected}`);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(path, 'r').catch(() => {
    throw new InvalidRequestError(`failed checking integrity of snapshot: file missing for ${STATE}`);
  });
  try {
    // One buffer for the whole file (a read stream would take a new one per chunk, see snapshot-records.ts).
    const buf = Buffer.allocUnsafe(READ_SLICE_BYTES);
    for (;;) {
      const { bytesRead } = await file.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}
