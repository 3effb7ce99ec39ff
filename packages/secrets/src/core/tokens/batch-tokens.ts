import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { Random } from '@ward/base';
import type { TokenEntry } from './token-entry.js';

/** Prefix of batch tokens, as established clients expect. */
export const BATCH_TOKEN_PREFIX = 'hvb.';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Binds ciphertexts to their purpose, so no other blob sealed under the key passes as a token. */
const AAD = Buffer.from('ward batch token v1');

/**
 * Batch tokens carry their own entry, sealed with AES-256-GCM under a key kept in the
 * token store's storage: `hvb.` + base64url(nonce ‖ ciphertext ‖ tag). Nothing is
 * persisted per token, so they cannot be renewed or revoked and expire with their TTL.
 */
export class BatchTokenCodec {
  readonly #key: Buffer;
  readonly #random: Random;

  constructor(key: Uint8Array, random: Random) {
    if (key.length !== 32) throw new Error('batch token key must be 32 bytes');
    this.#key = Buffer.from(key);
    this.#random = random;
  }

  /** Seals `entry` into a token. */
  encode(entry: TokenEntry): string {
    const nonce = Buffer.from(this.#random.bytes(NONCE_BYTES));
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(entry), 'utf8'), cipher.final()]);
    return BATCH_TOKEN_PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The entry sealed in `token`, or `undefined` when it is not a batch token or fails authentication. */
  decode(token: string): TokenEntry | undefined {
    if (!token.startsWith(BATCH_TOKEN_PREFIX)) return undefined;
    const blob = Buffer.from(token.slice(BATCH_TOKEN_PREFIX.length), 'base64url');
    if (blob.length <= NONCE_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, blob.subarray(0, NONCE_BYTES));
      decipher.setAAD(AAD);
      decipher.setAuthTag(blob.subarray(blob.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(blob.subarray(NONCE_BYTES, blob.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return JSON.parse(plain.toString('utf8')) as TokenEntry;
    } catch {
      return undefined;
    }
  }
}
