/** The `sys/` backend of every namespace: mounts, auth, policies, leases, seal, audit, managed keys, snapshots. @module */
import type { SystemCore } from '../core/system-core.js';
import { type Backend, type BackendContext, createBackend, pathHash, pathRandom } from '../framework/index.js';
import { createCancelGuard } from './ceremony-guard.js';
import { AUDIT_ROOT_PATHS, pathAudit } from './path-audit.js';
import { pathCapabilities } from './path-capabilities.js';
import { pathConfigCors } from './path-cors.js';
import { pathGenerateRoot } from './path-generate-root.js';
import { pathHa } from './path-ha.js';
import { INSPECT_ROOT_PATHS, pathInspectRouter } from './path-inspect-router.js';
import { pathInternalUiMounts } from './path-internal-ui-mounts.js';
import { LEASES_ROOT_PATHS, pathLeases } from './path-leases.js';
import { pathLockedUsers } from './path-locked-users.js';
import { type ManagedKeyPathDeps, pathManagedKeys } from './path-managed-keys.js';
import { pathMetrics } from './path-metrics.js';
import { MONITOR_ROOT_PATHS, pathMonitor } from './path-monitor.js';
import { pathMount, pathMountList } from './path-mounts.js';
import { pathNamespaces } from './path-namespaces.js';
import { pathInternalSpecsOpenapi } from './path-openapi.js';
import { pathPasswordPolicies } from './path-password-policies.js';
import { pathPolicies } from './path-policies.js';
import { pathRaw, RAW_ROOT_PATHS } from './path-raw.js';
import { pathRekey } from './path-rekey.js';
import { pathRemount } from './path-remount.js';
import { pathSealAndKeys } from './path-seal.js';
import { pathServerState, SERVER_STATE_ROOT_PATHS } from './path-server-state.js';
import { pathSnapshot, SNAPSHOT_ROOT_PATHS } from './path-snapshot.js';
import { pathSnapshotAuto, SNAPSHOT_AUTO_ROOT_PATHS, snapshotAutoTask } from './path-snapshot-auto.js';
import { pathTune } from './path-tune.js';
import { pathWrapping, WRAPPING_UNAUTHENTICATED_PATHS } from './path-wrapping.js';

/** Paths only the root namespace's `sys/` has: they act on the whole server. */
function rootOnlyPaths(sys: SystemCore) {
  const guard = createCancelGuard(sys.policies(), sys.tokenPolicyResolver());
  return [
    ...pathSnapshotAuto(),
    ...pathSealAndKeys(sys),
    ...pathHa(sys),
    ...pathRekey(sys.sealKeys, guard),
    ...pathGenerateRoot(sys.sealKeys, guard),
    ...pathLeases(sys.expiration),
    ...pathAudit(sys.audit),
    pathConfigCors(sys.cors),
    pathMetrics(sys.metrics),
    pathMonitor(sys.logSource),
    ...pathServerState(sys.serverState),
    ...pathSnapshot(sys.snapshots),
    ...(sys.raw ? pathRaw(sys.raw) : []),
    ...(sys.inspectRouter ? [pathInspectRouter(sys.inspectRouter)] : []),
  ];
}

function snapshotAutoDeps(sys: SystemCore, ctx: BackendContext) {
  return { storage: ctx.storage, clock: ctx.clock, logger: ctx.logger, snapshots: sys.snapshots };
}

/** The system backend of a namespace, mounted at `<namespace>sys/`. */
export function createSystemBackend(
  sys: SystemCore,
  ctx: BackendContext,
  managedKeys: Pick<ManagedKeyPathDeps, 'keys' | 'libraries'>,
): Backend {
  const isRoot = sys.namespace.id === 'root';
  return createBackend({
    type: 'system',
    storage: ctx.storage,
    cleanup: () => managedKeys.keys.close(),
    help: 'System endpoints used for control, policy and debugging.',
    periodic: isRoot ? [snapshotAutoTask(snapshotAutoDeps(sys, ctx))] : [],
    // `<table>/*path/tune` before `<table>/*path`: the first matching declaration wins.
    paths: [
      pathMountList(sys, 'mounts'),
      pathTune(sys, 'mounts'),
      pathMount(sys, 'mounts'),
      pathMountList(sys, 'auth'),
      pathTune(sys, 'auth'),
      pathMount(sys, 'auth'),
      ...pathRemount(sys, ctx.random),
      ...pathPolicies(sys.policies()),
      ...pathPasswordPolicies(sys.passwordPolicies),
      ...pathCapabilities(sys.policies(), sys.tokenPolicyResolver()),
      ...pathNamespaces(sys),
      ...pathLockedUsers(sys),
      ...pathManagedKeys({ ...managedKeys, mounts: sys.mounts, random: ctx.random }),
      ...pathWrapping(sys.wrapping),
      ...pathRandom(ctx.random, 'tools/'),
      ...pathHash('tools/'),
      pathInternalSpecsOpenapi({ routes: () => sys.openapiRoutes(), version: sys.version }),
      ...pathInternalUiMounts({
        namespace: sys.namespace,
        mounts: sys.mounts,
        version: sys.version,
        builtinMounts: () => sys.builtinMounts(),
        builtinAuthMounts: () => sys.builtinAuthMounts(),
        aclOfToken: async (token) => {
          const policies = await sys.tokenPolicyResolver().policiesOfToken(token);
          return policies && sys.policies().acl(policies);
        },
      }),
      ...(isRoot ? rootOnlyPaths(sys) : []),
    ],
    specialPaths: {
      // As established, share holders need no token (the shares are their credential), and the UI
      // mount listing judges the token itself.
      unauthenticated: [
        'internal/specs/openapi',
        'rekey/*',
        'rekey-recovery-key/*',
        'generate-root/*',
        'internal/ui/mounts',
        'internal/ui/mounts/*',
        ...WRAPPING_UNAUTHENTICATED_PATHS,
      ],
      root: [
        'seal',
        'step-down',
        'rotate',
        'auth/*',
        'remount',
        'locked-users',
        'locked-users/*',
        ...LEASES_ROOT_PATHS,
        ...AUDIT_ROOT_PATHS,
        'config/cors',
        ...MONITOR_ROOT_PATHS,
        ...SERVER_STATE_ROOT_PATHS,
        ...SNAPSHOT_ROOT_PATHS,
        ...SNAPSHOT_AUTO_ROOT_PATHS,
        ...RAW_ROOT_PATHS,
        ...INSPECT_ROOT_PATHS,
      ],
    },
  });
}
