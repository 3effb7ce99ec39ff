/** The `totp` engine: time-based one-time passwords (RFC 6238), each code accepted once. @module */

import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import type { TotpDeps } from './deps.js';
import { KeyCodesCache } from './key-codes.js';
import { pathCode } from './path-code.js';
import { pathKeys, pathListKeys } from './path-keys.js';
import { SWEEP_INTERVAL_MS, UsedCodes } from './used-codes.js';

const HELP =
  'The TOTP engine generates time-based one-time passwords (RFC 6238) from named keys, and ' +
  'validates them. Keys are generated here (and shown once as an otpauth:// URL and a QR code) ' +
  'or supplied by another service as a base32 key or an otpauth:// URL. A key is never readable ' +
  'after it is written, and each code is accepted at most once.';

/** Factory of the `totp` engine. */
export function createTotpBackend(ctx: BackendContext): Backend {
  const locks = new KeyedMutex();
  const usedCodes = new UsedCodes({ storage: ctx.storage, clock: ctx.clock, locks });
  const deps: TotpDeps = { clock: ctx.clock, random: ctx.random, usedCodes, locks, keyCodes: new KeyCodesCache() };
  return createBackend({
    type: 'totp',
    storage: ctx.storage,
    help: HELP,
    paths: [pathListKeys(), pathKeys(deps), pathCode(deps)],
    periodic: [{ name: 'sweep-used-codes', intervalMs: SWEEP_INTERVAL_MS, run: () => usedCodes.sweep() }],
  });
}
