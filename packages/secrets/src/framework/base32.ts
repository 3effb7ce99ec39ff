import { CodedError } from '@ward/base';

/**
 * RFC 4648 base32 (standard alphabet) with the exact error offsets of Go's
 * `encoding/base32`, because established servers show Go's text to the client:
 * `invalid key value: illegal base32 data at input byte N`.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const PAD = 0x3d; // '='
const DECODE = new Map([...ALPHABET].map((c, i) => [c.charCodeAt(0), i]));

/** Malformed base32; `offset` is the zero-based byte position Go reports. */
export class Base32Error extends CodedError<'base32_syntax'> {
  readonly code = 'base32_syntax';
  constructor(readonly offset: number) {
    super(`illegal base32 data at input byte ${offset}`);
  }
}

/** Base32 without padding, as generated keys are shown (20 bytes → 32 characters). */
export function encodeBase32NoPadding(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * Decodes padded standard base32 the way Go's `StdEncoding.DecodeString` does: CR and LF
 * are dropped first, padding must be complete, and the first bad byte is reported.
 */
export function decodeBase32(text: string): Uint8Array {
  const src = Buffer.from(text, 'utf8').filter((b) => b !== 0x0a && b !== 0x0d);
  const out: number[] = [];
  let pos = 0;
  let end = false;
  while (pos < src.length && !end) {
    const quantum = readQuantum(src, pos);
    pos = quantum.pos;
    end = quantum.end;
    out.push(...quantumBytes(quantum.values, quantum.length));
  }
  return Uint8Array.from(out);
}

interface Quantum {
  values: number[];
  /** How many of the 8 characters carried data (8, 7, 5, 4 or 2). */
  length: number;
  pos: number;
  end: boolean;
}

/** One 8-character group starting at `start`; a port of the inner loop of Go's `decode`. */
function readQuantum(src: Uint8Array, start: number): Quantum {
  const values: number[] = [];
  let pos = start;
  while (values.length < 8) {
    const j = values.length;
    if (pos === src.length) throw new Base32Error(pos - j); // missing padding
    const c = src[pos++] as number;
    const remaining = src.length - pos;
    if (c === PAD && j >= 2 && remaining < 8) {
      if (remaining + j < 7) throw new Base32Error(src.length); // not enough padding
      for (let k = 0; k < 7 - j; k++) {
        if (remaining > k && src[pos + k] !== PAD) throw new Base32Error(pos + k - 1);
      }
      // 1, 3 and 6 data characters cannot encode a whole byte (RFC 4648 §6).
      if (j === 1 || j === 3 || j === 6) throw new Base32Error(pos - 1);
      return { values, length: j, pos, end: true };
    }
    const value = DECODE.get(c);
    if (value === undefined) throw new Base32Error(pos - 1);
    values.push(value);
  }
  return { values, length: 8, pos, end: false };
}

/** The bytes of a group of `length` data characters (8 → 5 bytes, 7 → 4, 5 → 3, 4 → 2, 2 → 1). */
function quantumBytes(v: number[], length: number): number[] {
  const d = (i: number) => v[i] ?? 0;
  const bytes = [
    ((d(0) << 3) | (d(1) >> 2)) & 0xff,
    ((d(1) << 6) | (d(2) << 1) | (d(3) >> 4)) & 0xff,
    ((d(3) << 4) | (d(4) >> 1)) & 0xff,
    ((d(4) << 7) | (d(5) << 2) | (d(6) >> 3)) & 0xff,
    ((d(6) << 5) | d(7)) & 0xff,
  ];
  const count: Record<number, number> = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 };
  return bytes.slice(0, count[length] ?? 0);
}

/**
 * A supplied key as established servers check and store it: padded with `=` to a
 * multiple of 8 bytes (the padded text is what is stored), then upper-cased and decoded.
 */
export function padKey(key: string): string {
  const rest = Buffer.byteLength(key) % 8;
  return rest === 0 ? key : key + '='.repeat(8 - rest);
}

/** Upper-cases ASCII letters only: other characters are invalid base32 either way. */
export function upperAscii(text: string): string {
  return text.replace(/[a-z]+/g, (s) => s.toUpperCase());
}

/** The secret bytes of a stored key: trimmed, padded, upper-cased, decoded. */
export function decodeKey(key: string): Uint8Array {
  return decodeBase32(upperAscii(padKey(key.trim())));
}
