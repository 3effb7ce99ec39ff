import type { StorageOperation } from '../storage.js';

/**
 * A group of writes as SqliteStorage sends it to its writer thread: flat, so that posting it
 * costs one copy of the values into a buffer that is then transferred, not cloned. Cloned, each
 * value (a view on a pooled 8 KiB buffer, most of them) was serialized and copied again on the
 * other side, object by object: about 5 µs of the event loop's time per write.
 */
export interface GroupRequest {
  /** Every operation's key, in order. */
  keys: string[];
  /** Per operation: the length of its value in `values`, or -1 for a delete. */
  sizes: Int32Array;
  /** Per write (a put, a delete or a transaction): how many of the operations, in order, are its. */
  counts: Uint32Array;
  /** Every put's value, back to back. */
  values: ArrayBuffer;
}

const DELETE = -1;

/** The group and the buffers to transfer with it (they are detached here once posted). */
export function encodeGroup(writes: StorageOperation[][]): { request: GroupRequest; transfer: ArrayBuffer[] } {
  const keys: string[] = [];
  const counts = new Uint32Array(writes.length);
  let total = 0;
  writes.forEach((operations, i) => {
    counts[i] = operations.length;
    for (const o of operations) {
      keys.push(o.key);
      if (o.op === 'put') total += o.value.byteLength;
    }
  });
  const sizes = new Int32Array(keys.length);
  const values = new Uint8Array(total); // a buffer of its own: a pooled one cannot be transferred
  let at = 0;
  let n = 0;
  for (const operations of writes) {
    for (const o of operations) {
      if (o.op === 'put') {
        values.set(o.value, at);
        at += o.value.byteLength;
        sizes[n++] = o.value.byteLength;
      } else {
        sizes[n++] = DELETE;
      }
    }
  }
  return {
    request: { keys, sizes, counts, values: values.buffer },
    transfer: [values.buffer, sizes.buffer as ArrayBuffer, counts.buffer as ArrayBuffer],
  };
}

/** The writes of a group, each value a view on the group's buffer (no copy). */
export function decodeGroup(request: GroupRequest): StorageOperation[][] {
  const { keys, sizes, counts, values } = request;
  const writes: StorageOperation[][] = [];
  let n = 0;
  let at = 0;
  for (const count of counts) {
    const operations: StorageOperation[] = [];
    for (const end = n + count; n < end; n++) {
      const key = keys[n] as string;
      const size = sizes[n] as number;
      if (size === DELETE) {
        operations.push({ op: 'delete', key });
        continue;
      }
      operations.push({ op: 'put', key, value: new Uint8Array(values, at, size) });
      at += size;
    }
    writes.push(operations);
  }
  return writes;
}
