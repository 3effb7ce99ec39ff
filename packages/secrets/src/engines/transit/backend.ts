/** The `transit` engine: encryption, signing and HMAC as a service with named, versioned keys. @module */

import {
  type Backend,
  type BackendContext,
  createBackend,
  KeyedMutex,
  pathHash,
  pathRandom,
} from '../../framework/index.js';
import { UnsupportedOperationError } from '../../logical/errors.js';
import { autoRotation } from './auto-rotate.js';
import type { TransitDeps } from './deps.js';
import { pathBackup, pathRestore } from './path-backup.js';
import { pathCacheConfig } from './path-cache-config.js';
import { pathDatakey } from './path-datakey.js';
import { pathDecrypt, pathRewrap } from './path-decrypt.js';
import { pathEncrypt } from './path-encrypt.js';
import { pathExport } from './path-export.js';
import { pathHmac } from './path-hmac.js';
import { pathImport } from './path-import.js';
import { pathKeyConfig, pathRotate, pathTrim } from './path-key-upkeep.js';
import { pathKeys, pathListKeys } from './path-keys.js';
import { pathSign, pathVerify } from './path-sign.js';

const HELP =
  'The transit engine encrypts, decrypts, signs, verifies and MACs with keys it holds (aes256-gcm96, ' +
  'aes128-gcm96, chacha20-poly1305, ed25519, ecdsa-p256/p384/p521, rsa-2048/3072/4096, hmac; rotated by ' +
  'version), and signs and verifies with keys held in an HSM or a cloud key service (sys/managed-keys), ' +
  'which never leave it; a mount may use only managed keys with any_mount or listed in its allowed_managed_keys.';

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
      pathRotate(deps),
      pathKeyConfig(deps),
      pathTrim(deps),
      pathEncrypt(deps),
      pathDecrypt(),
      pathRewrap(deps),
      pathDatakey(deps),
      ...pathRandom(deps.random),
      ...pathHash(),
      ...pathHmac(),
      ...pathSign(deps),
      ...pathVerify(deps),
      ...pathExport(),
      pathBackup(),
      ...pathRestore(deps),
      pathCacheConfig(),
      ...pathImport(deps),
    ],
    periodic: [autoRotation(deps, ctx.storage, () => ctx.clock.now())],
  });
}
