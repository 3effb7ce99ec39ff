import { createHash, randomFillSync } from 'node:crypto';

/** Source of random bytes. Production uses the OS CSPRNG; tests use a seeded one. */
export interface Random {
  /** `n` fresh random bytes. */
  bytes(n: number): Uint8Array;
}

/** Bytes drawn from the OS in one call and handed out in small pieces (as `crypto.randomUUID` does). */
const POOL_BYTES = 8192;
/** Requests above this size bypass the pool. */
const POOLED_MAX = 64;

/**
 * The OS CSPRNG. Small requests (nonces, token IDs, UUIDs: one or more per request) are
 * served from a pool refilled 8 KiB at a time, because a system call per 12-byte nonce
 * was a measurable share of a request's CPU time. Bytes are zeroed in the pool once
 * handed out, so no two callers ever get the same bytes.
 */
export function createCryptoRandom(): Random {
  const pool = new Uint8Array(POOL_BYTES);
  let offset = POOL_BYTES;
  return {
    bytes(n) {
      if (n > POOLED_MAX) return randomFillSync(new Uint8Array(n));
      if (offset + n > POOL_BYTES) {
        randomFillSync(pool);
        offset = 0;
      }
      const out = pool.slice(offset, offset + n);
      pool.fill(0, offset, offset + n);
      offset += n;
      return out;
    },
  };
}

export const cryptoRandom: Random = createCryptoRandom();

/**
 * Deterministic bytes for tests: SHA-256 in counter mode over the seed.
 * Never use it outside tests: anyone who knows the seed knows every byte.
 */
export class SeededRandom implements Random {
  readonly #seed: string;
  #counter = 0;

  constructor(seed: number | string) {
    this.#seed = String(seed);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const block = createHash('sha256')
        .update(`${this.#seed}:${this.#counter++}`)
        .digest();
      const take = Math.min(block.length, n - filled);
      out.set(block.subarray(0, take), filled);
      filled += take;
    }
    return out;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random string of `length` base62 characters, unbiased (rejection sampling). */
export function randomBase62(random: Random, length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random.bytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would favour the first characters.
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A random RFC 4122 version-4 UUID drawn from `random`. */
export function randomUuid(random: Random): string {
  return formatUuid(random.bytes(16), 0);
}

/**
 * Version-4 UUIDs drawn from `random` `batch` at a time: one draw (one system call with the real
 * source) per batch instead of per UUID, for ids made on every request.
 */
export function uuidSource(random: Random, batch = 64): () => string {
  let pool: Uint8Array = new Uint8Array(0);
  let at = 0;
  return () => {
    if (at >= pool.length) {
      pool = random.bytes(16 * batch);
      at = 0;
    }
    at += 16;
    return formatUuid(pool, at - 16);
  };
}

/** Two hex digits per byte value: a UUID is formatted by lookups, without a Buffer or `toString('hex')`. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** The 16 bytes of `b` at `at` as a version-4 UUID (the version and variant bits are set here). */
function formatUuid(b: Uint8Array, at: number): string {
  const hex = (i: number) => HEX[b[at + i] as number] as string;
  const version = HEX[((b[at + 6] as number) & 0x0f) | 0x40] as string;
  const variant = HEX[((b[at + 8] as number) & 0x3f) | 0x80] as string;
  return (
    `${hex(0)}${hex(1)}${hex(2)}${hex(3)}-${hex(4)}${hex(5)}-${version}${hex(7)}-${variant}${hex(9)}-` +
    `${hex(10)}${hex(11)}${hex(12)}${hex(13)}${hex(14)}${hex(15)}`
  );
}
