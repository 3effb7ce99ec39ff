import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { type AzureAccess, DEFAULT_AZURE_ACCESS } from './clouds.js';
import { pathConfig } from './path-config.js';
import { credsSecrets, pathCreds } from './path-creds.js';
import { pathRoles } from './path-roles.js';

const HELP =
  'The Azure engine issues short-lived service principal credentials: a new application and service ' +
  'principal with the role’s role assignments and group memberships, or a new password of an existing ' +
  'application; revoking the lease deletes them.';

/** A factory of the `azure` engine reaching Azure as `access` says (tests: a fake cloud). */
export function azureBackendFactory(access: AzureAccess): (ctx: BackendContext) => Backend {
  return (ctx) => {
    const deps = { access, clock: ctx.clock, random: ctx.random, system: ctx.system };
    return createBackend({
      type: 'azure',
      storage: ctx.storage,
      help: HELP,
      paths: [...pathConfig(access, ctx.clock), ...pathRoles(deps), pathCreds(deps)],
      secrets: credsSecrets(deps),
    });
  };
}

/** Factory of the `azure` engine. */
export const createAzureBackend = azureBackendFactory(DEFAULT_AZURE_ACCESS);
