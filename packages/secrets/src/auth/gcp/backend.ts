import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { GoogleClientCache } from '../../google/client-cache.js';
import { renewalUnder } from '../common/index.js';
import { checkGceInstance } from './gce-login.js';
import { endpointsOf, gcpStore } from './gcp-store.js';
import { GoogleCerts } from './google-certs.js';
import { pathConfig } from './path-config.js';
import { pathConfigRotateRoot } from './path-config-rotate-root.js';
import { pathLogin } from './path-login.js';
import { pathRoles } from './path-role.js';

const HELP =
  'The GCP auth method logs Google Cloud service accounts in with a JWT the account signed (iam roles: ' +
  'IAM signJwt, or its key, checked against the public keys Google publishes for it) and Compute Engine ' +
  'instances with their identity token (gce roles: signed by Google, the instance looked up and matched ' +
  'against zones, regions, instance groups, labels). `login` needs no token.';

/** Factory of the `gcp` auth method. */
export function createGcpBackend(ctx: BackendContext): Backend {
  const clients = new GoogleClientCache(ctx.clock);
  return createBackend({
    type: 'gcp',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathConfig(),
      pathConfigRotateRoot(clients),
      ...pathRoles(),
      pathLogin(ctx.clock, clients, new GoogleCerts(ctx.clock)),
    ],
    specialPaths: { unauthenticated: ['login'] },
    // Renewal re-reads the role: current TTLs apply, a changed policy set stops renewal. A gce
    // login's instance is checked against the role again, as established.
    async renewLogin({ metadata, policies }) {
      const role = metadata.role ? await gcpStore.role(ctx.storage, metadata.role) : undefined;
      if (!role) return null;
      const renewal = renewalUnder(role.token, policies);
      if (role.type === 'gce') {
        const config = await gcpStore.config(ctx.storage);
        await checkGceInstance(
          clients.apis(config.credentials, endpointsOf(config)),
          role,
          {
            project_id: metadata.project_id ?? '',
            zone: metadata.zone ?? '',
            instance_id: metadata.instance_id ?? '',
            instance_name: metadata.instance_name ?? '',
          },
          metadata.service_account_id || metadata.service_account_email || '',
        );
      }
      return renewal;
    },
  });
}
