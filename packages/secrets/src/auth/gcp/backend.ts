import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { GoogleClientCache } from '../../google/client-cache.js';
import type { LoginRenewer } from '../../logical/response.js';
import { renewalUnder } from '../common/index.js';
import { gcpStore } from './gcp-store.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathRoles } from './path-role.js';

const HELP =
  'The GCP auth method logs Google Cloud service accounts in with a JWT the account signed (iam roles: ' +
  'IAM signJwt, or its key, checked against the public keys Google publishes for it) and Compute Engine ' +
  'instances with their identity token (gce roles: signed by Google, the instance looked up and matched ' +
  'against zones, regions, instance groups, labels). `login` needs no token.';

export type GcpBackend = Backend & LoginRenewer;

/** Factory of the `gcp` auth method. */
export function createGcpBackend(ctx: BackendContext): GcpBackend {
  const backend = createBackend({
    type: 'gcp',
    storage: ctx.storage,
    help: HELP,
    paths: [pathConfig(), ...pathRoles(), pathLogin(ctx.clock, new GoogleClientCache(ctx.clock))],
    specialPaths: { unauthenticated: ['login'] },
  });
  return {
    ...backend,
    // Renewal re-reads the role: current TTLs apply, a changed policy set stops renewal.
    async renewLogin({ metadata, policies }) {
      const role = metadata.role ? await gcpStore.role(ctx.storage, metadata.role) : undefined;
      if (!role) return null;
      return renewalUnder(role.token, policies);
    },
  };
}
