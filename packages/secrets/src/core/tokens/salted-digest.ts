import { createHmac } from 'node:crypto';

/**
 * The HMAC-SHA256 (hex) of `text` under the server's token salt: how token texts and
 * accessors are named in storage keys, which the barrier does not encrypt.
 */
export function saltedDigest(salt: Uint8Array, text: string): string {
  return createHmac('sha256', salt).update(text).digest('hex');
}

/** An accessor's digest, prefixed so it is never the digest of a token text. */
export function accessorDigest(salt: Uint8Array, accessor: string): string {
  return saltedDigest(salt, `accessor:${accessor}`);
}
