import type { Dispatcher } from 'undici';
import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { oktaStore } from './okta-store.js';
import { pathConfig } from './path-config.js';
import { pathLogin, pathVerify } from './path-login.js';
import { pathMappings } from './path-mappings.js';
import { PushAnswers } from './push-answers.js';

const HELP =
  'The Okta auth method logs Okta users in with their password (and Okta MFA: Okta Verify push or TOTP) ' +
  'through Okta’s authentication API; policies come from `users/` and `groups/` (the user’s Okta groups).';

/** A factory of the `okta` auth method reaching Okta through `dispatcher` (tests: one trusting a fake). */
export function oktaBackendFactory(dispatcher?: Dispatcher): (ctx: BackendContext) => Backend {
  return (ctx: BackendContext): Backend => {
    const pushAnswers = new PushAnswers(ctx.clock);
    return createBackend({
      type: 'okta',
      storage: ctx.storage,
      help: HELP,
      paths: [
        pathConfig(),
        ...pathMappings(),
        pathLogin({ clock: ctx.clock, pushAnswers, dispatcher }),
        pathVerify(pushAnswers),
      ],
      specialPaths: { unauthenticated: ['login/*', 'verify/*'] },
      // The password is not kept, so Okta cannot be asked again: renewal applies the config's current TTLs.
      async renewLogin() {
        const config = await oktaStore.config(ctx.storage);
        if (!config) return null;
        return { ttl: config.token.token_ttl, maxTtl: config.token.token_max_ttl, period: config.token.token_period };
      },
    });
  };
}

/** Factory of the `okta` auth method. */
export const createOktaBackend = oktaBackendFactory();
