import { type Backend, type BackendContext, createBackend } from '../framework/index.js';
import { pathAuth, pathAuthList } from './path-auth.js';
import { pathCapabilities } from './path-capabilities.js';
import { LEASES_ROOT_PATHS, pathLeases } from './path-leases.js';
import { pathMount, pathMountList } from './path-mounts.js';
import { pathMountTune } from './path-mounts-tune.js';
import { pathPolicies } from './path-policies.js';
import { pathSealAndKeys } from './path-seal.js';
import type { SystemCore } from './system-core.js';

/** The system backend mounted at `sys/`. */
export function createSystemBackend(sys: SystemCore, ctx: BackendContext): Backend {
  return createBackend({
    type: 'system',
    storage: ctx.storage,
    help: 'System endpoints used for control, policy and debugging.',
    // `mounts/*path/tune` before `mounts/*path`: the first matching declaration wins.
    paths: [
      pathMountList(sys),
      pathMountTune(sys),
      pathMount(sys),
      pathAuthList(sys),
      pathAuth(sys),
      ...pathSealAndKeys(sys),
      ...pathPolicies(sys.policies()),
      ...pathCapabilities(sys.policies(), sys.tokenPolicyResolver()),
      ...pathLeases(sys.expiration),
    ],
    specialPaths: { root: ['seal', 'rotate', 'auth/*', ...LEASES_ROOT_PATHS] },
  });
}
