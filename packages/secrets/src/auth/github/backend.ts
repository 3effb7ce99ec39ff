import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { githubStore } from './config-store.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathMaps } from './path-map.js';

const HELP =
  'The GitHub auth method logs members of a GitHub organization in with a personal access token. ' +
  'Policies come from `map/teams/<team>` (the teams of the organization the user is in) and ' +
  '`map/users/<login>`; `login` needs no token.';

/** Factory of the `github` auth method. */
export function createGitHubBackend(ctx: BackendContext): Backend {
  return createBackend({
    type: 'github',
    storage: ctx.storage,
    help: HELP,
    paths: [pathConfig(), ...pathMaps(), pathLogin()],
    specialPaths: { unauthenticated: ['login'] },
    // The GitHub token is not kept, so renewal cannot ask GitHub again: it applies the config's current TTLs.
    async renewLogin() {
      const config = await githubStore.config(ctx.storage);
      if (!config) return null;
      return { ttl: config.token.token_ttl, maxTtl: config.token.token_max_ttl, period: config.token.token_period };
    },
  });
}
