import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { InvalidRequestError } from '../logical/errors.js';
import type { StorageEntry } from './storage.js';

/**
 * `state.bin` as the established format writes it: each entry a uvarint length followed by a
 * protobuf `StorageEntry { 1: key string, 2: value bytes, 3: seal_wrap bool }`.
 *
 * Both directions go through one buffer of CHUNK_BYTES, reused for the whole file, written or read
 * with a file handle that is awaited before the buffer is touched again. A stream would take a new
 * buffer per chunk (and `Buffer.concat` another per record): ~300 MB of buffers for a 110 MB
 * snapshot, each freed only when V8 next collects, which showed as tens of MB of the server's RSS.
 */
const CHUNK_BYTES = 1024 * 1024;

/** What `writeRecords` wrote: the `meta.json` and `SHA256SUMS` facts about `state.bin`. */
export interface RecordsWritten {
  count: number;
  size: number;
  sha256: string;
}

/** Writes `entries` to a new file at `path` (mode 0600) as `state.bin`. */
export async function writeRecords(entries: AsyncIterable<StorageEntry>, path: string): Promise<RecordsWritten> {
  const file = await open(path, 'wx', 0o600);
  const hash = createHash('sha256');
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  let size = 0;
  let count = 0;
  const flush = async () => {
    hash.update(chunk.subarray(0, used));
    await file.write(chunk, 0, used);
    size += used;
    used = 0;
  };
  try {
    for await (const { key, value } of entries) {
      const keyBytes = Buffer.byteLength(key, 'utf8');
      const messageBytes = 1 + uvarintBytes(keyBytes) + keyBytes + 1 + uvarintBytes(value.length) + value.length;
      const recordBytes = uvarintBytes(messageBytes) + messageBytes;
      if (used + recordBytes > chunk.length) await flush();
      // A record larger than the buffer (a value of over a MiB) gets a buffer of its own.
      if (recordBytes > chunk.length) chunk = Buffer.allocUnsafe(recordBytes);
      let at = writeUvarint(chunk, used, messageBytes);
      chunk[at++] = 0x0a;
      at = writeUvarint(chunk, at, keyBytes);
      at += chunk.write(key, at, 'utf8');
      chunk[at++] = 0x12;
      at = writeUvarint(chunk, at, value.length);
      chunk.set(value, at);
      used = at + value.length;
      count++;
    }
    await flush();
  } finally {
    await file.close();
  }
  return { count, size, sha256: hash.digest('hex') };
}

/** The entries of a `state.bin` file, read a chunk at a time; a truncated or malformed file throws. */
export async function* decodeRecords(path: string): AsyncGenerator<StorageEntry> {
  const file = await open(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, filled, buf.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      let offset = 0;
      let needed = 0;
      for (;;) {
        const header = readUvarint(buf, offset, filled);
        if (!header) break;
        const end = header.next + header.value;
        if (end > filled) {
          needed = end - offset;
          break;
        }
        // Every key and value is copied out, so the buffer can be reused for the next read.
        yield decodeMessage(buf.subarray(header.next, end));
        offset = end;
      }
      // The partial record moves to the start; one longer than the buffer gets a buffer of its own.
      if (needed > buf.length) {
        const bigger = Buffer.allocUnsafe(needed);
        buf.copy(bigger, 0, offset, filled);
        buf = bigger;
      } else if (offset > 0) {
        buf.copyWithin(0, offset, filled);
      }
      filled -= offset;
    }
    if (filled > 0) throw new InvalidRequestError('snapshot state is truncated');
  } finally {
    await file.close();
  }
}

function decodeMessage(message: Buffer): StorageEntry {
  let key: string | undefined;
  let value: Uint8Array | undefined;
  let offset = 0;
  while (offset < message.length) {
    const tag = message[offset++];
    const field = readUvarint(message, offset, message.length);
    if (!field) break;
    if (tag === 0x18) {
      offset = field.next; // seal_wrap: a bool this server does not use
      continue;
    }
    const end = field.next + field.value;
    if ((tag !== 0x0a && tag !== 0x12) || end > message.length) break;
    const bytes = message.subarray(field.next, end);
    if (tag === 0x0a) key = bytes.toString('utf8');
    else value = new Uint8Array(bytes);
    offset = end;
  }
  if (offset !== message.length || key === undefined) throw new InvalidRequestError('snapshot state is malformed');
  return { key, value: value ?? new Uint8Array(0) };
}

function uvarintBytes(n: number): number {
  let bytes = 1;
  for (let rest = n; rest >= 0x80; rest = Math.floor(rest / 0x80)) bytes++;
  return bytes;
}

/** Writes `n` as a uvarint at `offset`; returns the offset after it. */
function writeUvarint(buf: Buffer, offset: number, n: number): number {
  let at = offset;
  let rest = n;
  while (rest >= 0x80) {
    buf[at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  buf[at++] = rest;
  return at;
}

/** The varint at `offset` and the offset after it, or `undefined` when `end` comes first. */
function readUvarint(buf: Buffer, offset: number, end: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = offset; i < end && i < offset + 8; i++) {
    const byte = buf[i] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i + 1 };
    scale *= 0x80;
  }
  if (end >= offset + 8) throw new InvalidRequestError('snapshot state is malformed');
  return undefined;
}
