import type { Clock } from '@ward/base';
import {
  type Backend,
  type BackendContext,
  createBackend,
  type ManagedKeyRef,
  type ManagedKeySigner,
} from '../../framework/index.js';
import { UnsupportedOperationError } from '../../logical/errors.js';
import { pathKeys, pathListKeys } from './path-keys.js';
import { pathSign, pathVerify } from './path-sign.js';

/** What the transit paths share: the clock and the mount's managed keys (already checked against `allowed_managed_keys`). */
export interface TransitDeps {
  clock: Clock;
  managedKey(ref: ManagedKeyRef): Promise<ManagedKeySigner>;
}

const HELP =
  'The transit engine (managed-key subset) signs and verifies data with keys held in an HSM or a ' +
  'cloud key service (sys/managed-keys). The private key never leaves it; a mount may use only ' +
  'keys with any_mount or listed in its allowed_managed_keys.';

/** Factory of the `transit` engine. */
export function createTransitBackend(ctx: BackendContext): Backend {
  const deps: TransitDeps = {
    clock: ctx.clock,
    managedKey: (ref) => {
      if (!ctx.system.managedKey) throw new UnsupportedOperationError('managed keys are not available here');
      return ctx.system.managedKey(ref);
    },
  };
  return createBackend({
    type: 'transit',
    storage: ctx.storage,
    help: HELP,
    paths: [pathListKeys(), pathKeys(deps), ...pathSign(deps), ...pathVerify(deps)],
  });
}
