import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { CLEANUP_INTERVAL_MS, retryLeftovers } from './cleanup.js';
import { gcpEngineDeps } from './deps.js';
import { keySecret } from './issued.js';
import { pathAccounts } from './path-accounts.js';
import { pathConfig } from './path-config.js';
import { pathRolesets } from './path-rolesets.js';
import { pathSecrets } from './path-secrets.js';

const HELP =
  'The GCP secrets engine hands out Google Cloud credentials: OAuth access tokens and leased service ' +
  'account keys of rolesets (service accounts it creates and grants IAM roles), of static accounts ' +
  '(existing ones) and access tokens of impersonated accounts (IAM credentials). Revoking a key’s lease ' +
  'deletes the key.';

/** Factory of the `gcp` secrets engine. */
export function createGcpSecretsBackend(ctx: BackendContext): Backend {
  const d = gcpEngineDeps(ctx.clock, ctx.random);
  return createBackend({
    type: 'gcp',
    storage: ctx.storage,
    help: HELP,
    paths: [...pathConfig(d), ...pathRolesets(d), ...pathAccounts(d), ...pathSecrets(d)],
    secrets: [keySecret(d)],
    // Accounts and bindings a rotation could not remove, retried until they are gone.
    periodic: [{ name: 'gcp-leftovers', intervalMs: CLEANUP_INTERVAL_MS, run: () => retryLeftovers(d, ctx.storage) }],
  });
}
