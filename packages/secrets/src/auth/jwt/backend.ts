import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { renewalUnder } from '../common/index.js';
import { jwtStore } from './jwt-store.js';
import { KeySource } from './key-source.js';
import { OidcStates, STATE_SWEEP_INTERVAL_MS } from './oidc-states.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathOidc } from './path-oidc.js';
import { pathRoles } from './path-role.js';

const HELP =
  'The JWT/OIDC auth method logs in with JWTs signed by a configured key or an OpenID provider (`login`), ' +
  'and people through the OIDC authorization-code flow in a browser (`oidc/auth_url`, `oidc/callback`).';

/** Factory of the `jwt` and `oidc` auth methods (one backend under two type names). */
export function createJwtBackend(ctx: BackendContext): Backend {
  const keys = new KeySource(ctx.clock);
  const states = new OidcStates(ctx.clock, ctx.random);
  return createBackend({
    type: 'jwt',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathConfig(keys),
      ...pathRoles(),
      pathLogin(keys, ctx.clock),
      ...pathOidc({ keys, states, clock: ctx.clock, logger: ctx.logger }),
    ],
    periodic: [
      { name: 'sweep-oidc-states', intervalMs: STATE_SWEEP_INTERVAL_MS, run: () => states.sweep(ctx.storage) },
    ],
    specialPaths: { unauthenticated: ['login', 'oidc/auth_url', 'oidc/callback'] },
    // Renewal re-reads the role: current TTLs apply, a changed policy set stops renewal.
    async renewLogin({ metadata, policies }) {
      const role = metadata.role ? await jwtStore.role(ctx.storage, metadata.role) : undefined;
      if (!role) return null;
      return renewalUnder(role.token, policies);
    },
  });
}
