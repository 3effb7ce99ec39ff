import { createReadStream } from 'node:fs';
import { InvalidRequestError } from '../logical/errors.js';
import type { StorageEntry } from './storage.js';

/**
 * `state.bin` as the established format writes it: each entry a uvarint length followed by a
 * protobuf `StorageEntry { 1: key string, 2: value bytes, 3: seal_wrap bool }`.
 */
export function encodeRecord({ key, value }: StorageEntry): Buffer {
  const keyBytes = Buffer.from(key, 'utf8');
  const message = Buffer.concat([
    Buffer.of(0x0a),
    uvarint(keyBytes.length),
    keyBytes,
    Buffer.of(0x12),
    uvarint(value.length),
    value,
  ]);
  return Buffer.concat([uvarint(message.length), message]);
}

/** The entries of a `state.bin` file, read a chunk at a time; a truncated or malformed file throws. */
export async function* decodeRecords(path: string): AsyncGenerator<StorageEntry> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path)) {
    pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
    let offset = 0;
    for (;;) {
      const header = readUvarint(pending, offset);
      if (!header || header.next + header.value > pending.length) break;
      yield decodeMessage(pending.subarray(header.next, header.next + header.value));
      offset = header.next + header.value;
    }
    pending = pending.subarray(offset);
  }
  if (pending.length > 0) throw new InvalidRequestError('snapshot state is truncated');
}

function decodeMessage(message: Buffer): StorageEntry {
  let key: string | undefined;
  let value: Uint8Array | undefined;
  let offset = 0;
  while (offset < message.length) {
    const tag = message[offset++];
    const field = readUvarint(message, offset);
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

function uvarint(n: number): Buffer {
  const out: number[] = [];
  let rest = n;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** The varint at `offset` and the offset after it, or `undefined` when the buffer ends first. */
function readUvarint(buf: Buffer, offset: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = offset; i < buf.length && i < offset + 8; i++) {
    const byte = buf[i] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i + 1 };
    scale *= 0x80;
  }
  if (buf.length >= offset + 8) throw new InvalidRequestError('snapshot state is malformed');
  return undefined;
}
