import type { AesGcmBarrier } from './barrier/index.js';
import { type CoreDeps, NO_METRICS } from './core-types.js';
import type { CoreHa } from './ha/index.js';
import { type PipelineCore, withIdentityPolicies } from './request-handling.js';
import type { Router } from './router/router.js';
import { routerRecords } from './router/router-records.js';
import type { SnapshotControls } from './snapshots.js';
import type { ServerControls } from './system-core.js';

/** The parts of the core that `sys/` controls (the core passes itself; this never imports it). */
export interface ControlledCore extends PipelineCore {
  readonly deps: Pick<
    CoreDeps,
    'metrics' | 'logSource' | 'rawStorageEndpoint' | 'introspectionEndpoint' | 'serverState'
  >;
  readonly router: PipelineCore['router'] & Pick<Router, 'routes'>;
  readonly barrier: Pick<AesGcmBarrier, 'rotate' | 'keyStatus' | 'get' | 'put' | 'delete' | 'list'>;
  readonly sealKeys: ServerControls['sealKeys'];
  readonly cors: ServerControls['cors'];
  readonly wrapping: ServerControls['wrapping'] & PipelineCore['wrapping'];
  readonly snapshots: SnapshotControls;
  readonly ha: Pick<CoreHa, 'report' | 'stepDown'>;
  seal(): Promise<void>;
}

/** What `sys/` acts on for the whole server, the same object for every namespace. */
export function serverControls(core: ControlledCore): ServerControls {
  return {
    version: core.version,
    systemTtls: core.systemTtls,
    seal: () => core.seal(),
    // A new barrier key term; data written before stays readable.
    rotateKeyring: async () => {
      await core.barrier.rotate();
    },
    keyStatus: () => core.barrier.keyStatus(),
    sealKeys: core.sealKeys,
    // For `sys/capabilities*`: entity and group policies count, as they do for the token's requests.
    tokenPolicyResolver: () => ({
      policiesOfToken: async (token) => withIdentityPolicies(core, await core.tokens.lookup(token)),
      policiesOfAccessor: async (accessor) => withIdentityPolicies(core, await core.tokens.lookupAccessor(accessor)),
    }),
    expiration: core.expiration,
    audit: core.audit,
    cors: core.cors,
    metrics: core.deps.metrics ?? NO_METRICS,
    logSource: core.deps.logSource,
    serverState: core.deps.serverState,
    wrapping: core.wrapping,
    snapshots: core.snapshots,
    ha: { nodes: () => core.ha.report(), stepDown: () => core.ha.stepDown() },
    raw: core.deps.rawStorageEndpoint === true ? core.barrier : undefined,
    inspectRouter:
      core.deps.introspectionEndpoint === true ? (tag) => routerRecords(core.router.routes(), tag) : undefined,
  };
}
