import type { Random } from '@ward/base';
import {
  type Backend,
  type BackendContext,
  createBackend,
  KeyedMutex,
  type ManagedKeyRef,
  type ManagedKeySigner,
} from '../../framework/index.js';
import { UnsupportedOperationError } from '../../logical/errors.js';
import { pathDecrypt, pathEncrypt } from './path-encrypt.js';
import { pathKeys, pathKeyUpkeep, pathListKeys } from './path-keys.js';
import { pathSign, pathVerify } from './path-sign.js';

/** What the transit paths share: the mount's managed keys (already checked against `allowed_managed_keys`), randomness, time. */
export interface TransitDeps {
  random: Random;
  /** Now, RFC 3339 (creation times of keys and versions). */
  now(): string;
  /** Serialises the changes of one key (create, rotate, config, delete). */
  locks: KeyedMutex;
  managedKey(ref: ManagedKeyRef): Promise<ManagedKeySigner>;
}

const HELP =
  'The transit engine (a subset) encrypts and decrypts with symmetric keys it holds (aes256-gcm96, ' +
  'aes128-gcm96, chacha20-poly1305; rotated by version), and signs and verifies with keys held in an HSM ' +
  'or a cloud key service (sys/managed-keys), which never leave it; a mount may use only managed keys ' +
  'with any_mount or listed in its allowed_managed_keys.';

/** Factory of the `transit` engine. */
export function createTransitBackend(ctx: BackendContext): Backend {
  const deps: TransitDeps = {
    random: ctx.random,
    now: () => new Date(ctx.clock.now()).toISOString(),
    locks: new KeyedMutex(),
    managedKey: (ref) => {
      if (!ctx.system.managedKey) throw new UnsupportedOperationError('managed keys are not available here');
      return ctx.system.managedKey(ref);
    },
  };
  return createBackend({
    type: 'transit',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathListKeys(),
      pathKeys(deps),
      ...pathKeyUpkeep(deps),
      pathEncrypt(deps),
      pathDecrypt(),
      ...pathSign(deps),
      ...pathVerify(deps),
    ],
  });
}
