import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { renewalUnder } from '../common/index.js';
import { k8sStore } from './k8s-store.js';
import { DEFAULT_SERVICE_ACCOUNT_DIR, type LocalServiceAccount, localServiceAccountIn } from './local-account.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathRoles } from './path-role.js';

const HELP =
  'The Kubernetes auth method logs pods in with their service account JWT, checked by the cluster’s TokenReview API.';

/**
 * The factory of the `kubernetes` auth method whose logins fall back on the pod's own CA and token
 * at `local` (unless a config says `disable_local_ca_jwt`).
 */
export function kubernetesBackendFactory(
  local: LocalServiceAccount = localServiceAccountIn(DEFAULT_SERVICE_ACCOUNT_DIR),
): (ctx: BackendContext) => Backend {
  return (ctx) => createKubernetesBackendWith(ctx, local);
}

/** Factory of the `kubernetes` auth method, with the established service account paths. */
export function createKubernetesBackend(ctx: BackendContext): Backend {
  return createKubernetesBackendWith(ctx, localServiceAccountIn(DEFAULT_SERVICE_ACCOUNT_DIR));
}

function createKubernetesBackendWith(ctx: BackendContext, local: LocalServiceAccount): Backend {
  return createBackend({
    type: 'kubernetes',
    storage: ctx.storage,
    help: HELP,
    paths: [pathConfig(), ...pathRoles(), pathLogin(ctx.clock, local)],
    specialPaths: { unauthenticated: ['login'] },
    // Renewal re-reads the role: current TTLs apply, a changed policy set stops renewal.
    async renewLogin({ metadata, policies }) {
      const role = metadata.role ? await k8sStore.role(ctx.storage, metadata.role) : undefined;
      if (!role) return null;
      return renewalUnder(role.token, policies);
    },
  });
}
