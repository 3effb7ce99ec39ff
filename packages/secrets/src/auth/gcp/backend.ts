import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import type { LoginRenewer } from '../../logical/response.js';
import { renewalUnder } from '../common/index.js';
import { gcpStore } from './gcp-store.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathRoles } from './path-role.js';

const HELP =
  'The GCP auth method (iam roles) logs Google Cloud service accounts in with a JWT the account ' +
  'signed (IAM signJwt, or its key), checked against the public keys Google publishes for it. ' +
  '`login` needs no token.';

export type GcpBackend = Backend & LoginRenewer;

/** Factory of the `gcp` auth method. */
export function createGcpBackend(ctx: BackendContext): GcpBackend {
  const backend = createBackend({
    type: 'gcp',
    storage: ctx.storage,
    help: HELP,
    paths: [pathConfig(), ...pathRoles(), pathLogin(ctx.clock)],
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
