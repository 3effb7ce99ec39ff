import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { Random } from '@ward/base';
import { InvalidRequestError } from '../errors.js';

/**
 * Frame of an encrypted gossip message, as memberlist's (version 1, no padding):
 * `[version 1 byte][nonce 12 bytes][AES-GCM ciphertext][tag 16 bytes]`.
 */
const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** AES-128, AES-192 or AES-256, as memberlist accepts. */
const KEY_SIZES = new Set([16, 24, 32]);
/** Bound to every message, so a ciphertext of another protocol using the same key does not decrypt here. */
const ASSOCIATED_DATA = Buffer.from('ward-gossip');

/** A gossip key as operators write it: base64 of 16, 24 or 32 random bytes. */
export function parseGossipKey(text: string): Buffer {
  const key = Buffer.from(text, 'base64');
  // Buffer.from ignores bad characters: a round trip catches them.
  if (key.toString('base64') !== text.trim() || !KEY_SIZES.has(key.length)) {
    throw new InvalidRequestError(
      `invalid gossip encryption key ${JSON.stringify(text.slice(0, 8))}…: want base64 of 16, 24 or 32 bytes`,
    );
  }
  return key;
}

/** A fresh 32-byte key in the form `parseGossipKey` reads. */
export function generateGossipKey(random: Random): string {
  return Buffer.from(random.bytes(32)).toString('base64');
}

/**
 * The gossip keys of one server: the primary encrypts everything sent, and every key is
 * tried on what arrives, so a cluster can rotate (install everywhere, use, then remove the
 * old one) without a moment when members cannot hear each other.
 */
export class Keyring {
  /** Base64 form → key; the first entry is the primary. */
  #keys = new Map<string, Buffer>();

  constructor(
    keys: readonly string[],
    private readonly random: Random,
  ) {
    if (keys.length === 0) throw new InvalidRequestError('a keyring needs at least one key');
    for (const k of keys) this.#keys.set(k, parseGossipKey(k));
  }

  /** Every key, the primary first (base64). */
  list(): string[] {
    return [...this.#keys.keys()];
  }

  get primary(): string {
    return this.list()[0] as string;
  }

  install(key: string): void {
    if (!this.#keys.has(key)) this.#keys.set(key, parseGossipKey(key));
  }

  use(key: string): void {
    const k = this.#keys.get(key);
    if (!k) throw new InvalidRequestError('Requested key is not in the keyring');
    this.#keys = new Map([[key, k], ...[...this.#keys].filter(([name]) => name !== key)]);
  }

  remove(key: string): void {
    if (key === this.primary) throw new InvalidRequestError('Removing the primary key is not allowed');
    if (!this.#keys.delete(key)) throw new InvalidRequestError('Requested key is not in the keyring');
  }

  encrypt(plain: Uint8Array): Buffer {
    const key = this.#keys.get(this.primary) as Buffer;
    const nonce = Buffer.from(this.random.bytes(NONCE_BYTES));
    const cipher = createCipheriv(cipherName(key), key, nonce);
    cipher.setAAD(ASSOCIATED_DATA);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]);
  }

  /** The plaintext, or undefined when no key opens `data` (a stranger, or tampering). */
  decrypt(data: Uint8Array): Buffer | undefined {
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (buf.length < 1 + NONCE_BYTES + TAG_BYTES || buf[0] !== VERSION) return undefined;
    const nonce = buf.subarray(1, 1 + NONCE_BYTES);
    const body = buf.subarray(1 + NONCE_BYTES, buf.length - TAG_BYTES);
    const tag = buf.subarray(buf.length - TAG_BYTES);
    for (const key of this.#keys.values()) {
      try {
        const decipher = createDecipheriv(cipherName(key), key, nonce);
        decipher.setAAD(ASSOCIATED_DATA);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]);
      } catch {
        // Not this key: try the next.
      }
    }
    return undefined;
  }
}

function cipherName(key: Buffer): 'aes-128-gcm' | 'aes-192-gcm' | 'aes-256-gcm' {
  return key.length === 16 ? 'aes-128-gcm' : key.length === 24 ? 'aes-192-gcm' : 'aes-256-gcm';
}
