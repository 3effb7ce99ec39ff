import { definePath, type PathDefinition } from '../../framework/index.js';
import { issuerUrl, oidcStore } from './oidc-store.js';
import { publicKeys } from './path-oidc-token.js';
import type { ProviderDeps } from './provider-deps.js';

/** The provider's discovery document and key set, unauthenticated as OpenID Connect Discovery 1.0 has them. */
export function pathOidcWellKnown(d: ProviderDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/.well-known/openid-configuration',
      fields: {},
      operations: {
        read: {
          summary: 'The discovery document.',
          handler: async ({ storage }) => {
            const issuer = issuerUrl(await oidcStore.issuer(storage), d);
            return {
              raw: {
                status: 200,
                body: {
                  issuer,
                  jwks_uri: `${issuer}/.well-known/keys`,
                  response_types_supported: ['id_token'],
                  subject_types_supported: ['public'],
                  id_token_signing_alg_values_supported: [
                    'RS256',
                    'RS384',
                    'RS512',
                    'ES256',
                    'ES384',
                    'ES512',
                    'EdDSA',
                  ],
                },
              },
            };
          },
        },
      },
      help: { synopsis: 'OpenID discovery document.', description: 'Needs no token.' },
    }),
    definePath({
      pattern: 'oidc/.well-known/keys',
      fields: {},
      operations: {
        read: {
          summary: 'The public keys that verify identity tokens.',
          handler: async ({ storage }) => ({ raw: { status: 200, body: await publicKeys(storage, d.clock.now()) } }),
        },
      },
      help: { synopsis: 'JSON Web Key Set of identity tokens.', description: 'Needs no token.' },
    }),
  ];
}
