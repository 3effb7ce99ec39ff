import { InternalError } from '../../logical/errors.js';
import type { StorageOperation } from '../storage.js';

/** A transaction's operations as the journal file holds them: JSON lines, values in base64. */
export function encodeJournal(operations: StorageOperation[]): Uint8Array {
  const lines = operations.map((o) =>
    JSON.stringify(o.op === 'put' ? { op: 'put', key: o.key, value: Buffer.from(o.value).toString('base64') } : o),
  );
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Reads a journal back; it was renamed into place whole, so anything unreadable is corruption. */
export function decodeJournal(bytes: Uint8Array): StorageOperation[] {
  const text = Buffer.from(bytes).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const o = JSON.parse(line) as { op?: unknown; key?: unknown; value?: unknown };
      if (typeof o.key !== 'string') throw new InternalError('storage "file": the transaction journal is corrupt');
      if (o.op === 'delete') return { op: 'delete', key: o.key };
      if (o.op === 'put' && typeof o.value === 'string') {
        return { op: 'put', key: o.key, value: new Uint8Array(Buffer.from(o.value, 'base64')) };
      }
      throw new InternalError('storage "file": the transaction journal is corrupt');
    });
}
