import { type AzureAccess, DEFAULT_AZURE_ACCESS } from '../../engines/azure/index.js';
import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { renewalUnder } from '../common/index.js';
import { azureAuthStore } from './azure-auth-store.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathRoles } from './path-role.js';
import { TenantKeyCache } from './tenant-keys.js';

const HELP =
  'The Azure auth method logs Azure managed identities (and service principals) in with an access token ' +
  'Entra ID issued them, checked against the tenant’s published keys; roles bind service principals, ' +
  'groups, and the machine’s subscription, resource group, location and scale set. `login` needs no token.';

/** A factory of the `azure` auth method reaching Azure as `access` says (tests: a fake cloud). */
export function azureAuthBackendFactory(access: AzureAccess): (ctx: BackendContext) => Backend {
  return (ctx) => {
    const keys = new TenantKeyCache(ctx.clock, access.dispatcher);
    return createBackend({
      type: 'azure',
      storage: ctx.storage,
      help: HELP,
      paths: [pathConfig(access), ...pathRoles(), pathLogin(access, keys)],
      specialPaths: { unauthenticated: ['login'] },
      // Renewal re-reads the role: current TTLs apply, a changed policy set stops renewal.
      async renewLogin({ metadata, policies }) {
        const role = metadata.role ? await azureAuthStore.role(ctx.storage, metadata.role) : undefined;
        if (!role) return null;
        return renewalUnder(role.token, policies);
      },
    });
  };
}

/** Factory of the `azure` auth method. */
export const createAzureAuthBackend = azureAuthBackendFactory(DEFAULT_AZURE_ACCESS);
