import { decodeKey } from '../../framework/base32.js';
import { UnsupportedPathError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { getFrozenJson, putJson } from '../../logical/storage.js';
import type { Algorithm, OtpParams } from './otp.js';

/** A stored key, under `key/<name>`. Field names keep the API's spelling. */
export interface TotpKeyEntry {
  /** Base32 secret: generated ones unpadded, supplied ones as sent but padded to a multiple of 8. */
  key: string;
  issuer: string;
  account_name: string;
  period: number;
  algorithm: Algorithm;
  digits: number;
  /** 0 or 1: steps either side accepted on validation. */
  skew: number;
}

const PREFIX = 'key/';

/**
 * The keys of one mount. Stateless: every call reads or writes the mount's storage. Reads hand
 * out the barrier's decoded, frozen entry (the same object until the key is written again).
 */
export const keyStore = {
  get: (storage: Storage, name: string) => getFrozenJson<TotpKeyEntry>(storage, PREFIX + name),
  put: (storage: Storage, name: string, entry: TotpKeyEntry) => putJson(storage, PREFIX + name, entry),
  delete: (storage: Storage, name: string) => storage.delete(PREFIX + name),
  list: (storage: Storage) => storage.list(PREFIX),
};

/** What code generation needs, from a stored key. */
export function otpParams(entry: Readonly<TotpKeyEntry>): OtpParams {
  return {
    secret: decodeKey(entry.key),
    algorithm: entry.algorithm,
    digits: entry.digits,
    periodSeconds: entry.period,
  };
}

/** Key names: word characters, `-`, `.` and `@`, starting and ending with a word character. */
const NAME = /^\w(?:[\w.@-]*\w)?$/;

/**
 * Names outside the established pattern match no path upstream (404 unsupported path);
 * our segment syntax captures any segment, so the handlers check.
 */
export function requireKeyName(name: string): void {
  if (!NAME.test(name)) throw new UnsupportedPathError();
}
