import type { Clock } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { validateClaims } from './claims.js';
import type { KeySource } from './key-source.js';
import { loginFor } from './login-grant.js';
import { providerLogin } from './provider-fetch.js';
import { resolveRole } from './resolve-role.js';

/** `login`: a `jwt` role and a JWT signed by a configured key. */
export function pathLogin(keys: KeySource, clock: Clock) {
  return definePath({
    pattern: 'login',
    fields: {
      role: field.string({ description: 'The role to log in with (default: the configured default_role).' }),
      jwt: field.string({ description: 'The signed JWT.' }),
    },
    operations: {
      update: {
        summary: 'Log in with a JWT.',
        handler: async ({ storage, data }) => {
          const { config, roleName, role } = await resolveRole(storage, data.role);
          if (role.role_type === 'oidc') throw new InvalidRequestError('role with oidc role_type is not allowed');
          if (!data.jwt) throw new InvalidRequestError('missing token');
          const claims = await keys.verify(config, data.jwt);
          const issuer = config.oidc_discovery_url ? (await keys.discovery(config)).issuer : config.bound_issuer;
          validateClaims(claims, role, Math.floor(clock.now() / 1000), issuer);
          const discovery = () => keys.discovery(config);
          const provided = await providerLogin({ config, role, claims, discovery, clock });
          return loginFor(roleName, role, provided.claims, provided.groups);
        },
      },
    },
    help: {
      synopsis: 'Log in with a signed JWT.',
      description:
        'Needs no token. The signature is checked against the configured keys, then exp/nbf/iat (with the ' +
        'role’s leeways), iss, aud, sub and bound_claims. A token that fails a check gets 400.',
    },
  });
}
