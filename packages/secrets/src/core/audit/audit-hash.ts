import { createHmac } from 'node:crypto';
import { setOwn } from '../../logical/own-entries.js';

/** Turns one secret string into what the audit log shows instead of it. */
export type Hasher = (value: string) => string;

/** `hmac-sha256:<hex>` keyed by a device's salt: equal inputs give equal digests in that device's log only. */
export function hmacHasher(salt: Uint8Array): Hasher {
  return (value) => `hmac-sha256:${createHmac('sha256', salt).update(value).digest('hex')}`;
}

/** Writes values as they are (`log_raw`). */
export const rawHasher: Hasher = (value) => value;

/**
 * A copy of `value` with every string, at any depth in maps and lists, replaced by its digest.
 * Numbers, booleans and null stay: they carry no secret an attacker could not guess anyway,
 * and keeping them makes the log readable. Map keys stay so entries can be searched by field.
 */
export function hashStrings(value: unknown, hash: Hasher): unknown {
  if (typeof value === 'string') return hash(value);
  if (Array.isArray(value)) return value.map((item) => hashStrings(item, hash));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, hashStrings(item, hash));
    return out;
  }
  return value;
}
