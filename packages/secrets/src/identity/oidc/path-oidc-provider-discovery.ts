import { definePath, field, type HandlerContext, type PathDefinition } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { mergeClaims } from './claims-template.js';
import { oidcStore, verifyingKeys } from './oidc-store.js';
import { ScopeConflictError, scopeClaims } from './provider-claims.js';
import { allowsClient, isAssigned, type ProviderDeps, providerIssuer } from './provider-deps.js';
import { type ProviderRecord, providerStore } from './provider-store.js';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The provider's discovery document (OpenID Connect Discovery 1.0 §3), as established. */
function discovery(issuer: string, provider: ProviderRecord) {
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/keys`,
    // The established server's own UI page signs the user in and calls the API's authorize.
    authorization_endpoint: `${issuer.replace('/v1/', '/ui/vault/')}/authorize`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    id_token_signing_alg_values_supported: ALGORITHMS,
    response_types_supported: ['code'],
    scopes_supported: [...provider.scopes_supported, 'openid'],
    claims_supported: [],
    subject_types_supported: ['public'],
    grant_types_supported: ['authorization_code'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
  };
}

/** Public keys of every key a client the provider allows signs with, each generation still verifying. */
async function providerKeys(storage: Storage, provider: ProviderRecord, nowMs: number) {
  const names = new Set<string>();
  for (const c of await providerStore.clients(storage))
    if (allowsClient(provider.allowed_client_ids, c.client_id)) names.add(c.key);
  const keys = [];
  for (const name of names) {
    const key = await oidcStore.key(storage, name);
    keys.push(...verifyingKeys(key, nowMs));
  }
  return { keys };
}

/** RFC 6750 3.1 errors of the userinfo endpoint, as established. */
function userinfoError(error: 'invalid_request' | 'invalid_token' | 'access_denied', description: string) {
  const status = { invalid_request: 400, invalid_token: 401, access_denied: 403 }[error];
  const headers: Record<string, string> = {};
  if (error !== 'access_denied')
    headers['WWW-Authenticate'] = `Bearer error="${error}",error_description="${description}"`;
  return { raw: { status, body: { error, error_description: description }, headers } };
}

/** `.well-known/openid-configuration`, `.well-known/keys` (no token) and `userinfo` (the access token) of a provider. */
export function pathOidcProviderDiscovery(d: ProviderDeps): PathDefinition[] {
  const name = field.path({ description: 'Name of the provider.' });
  const userinfoFields = { name };
  const userinfo = async ({ storage, data, req }: HandlerContext<typeof userinfoFields>) => {
    const provider = await providerStore.provider(storage, data.name);
    if (!provider) return userinfoError('invalid_request', 'provider not found');
    const bearer = /^bearer /i.test(req.authorization ?? '') ? (req.authorization ?? '').slice(7).trim() : '';
    if (bearer === '') return userinfoError('invalid_token', 'access token must be sent as a Bearer token');
    const token = await providerStore.accessToken(storage, bearer);
    if (!token || token.expires_at_ms <= d.clock.now())
      return userinfoError('invalid_token', 'access token is expired');
    if (token.provider !== data.name)
      return userinfoError('access_denied', 'access token was not issued by the provider');
    const client = await providerStore.clientById(storage, token.client_id);
    if (!client) return userinfoError('access_denied', 'client not found');
    const entity = d.store.resolveEntity(token.entity_id);
    if (!entity) return userinfoError('access_denied', 'identity entity associated with the request not found');
    if (!(await isAssigned(d, storage, entity, client.assignments)))
      return userinfoError('access_denied', 'identity entity not authorized by client assignment');
    if (!allowsClient(provider.allowed_client_ids, token.client_id))
      return userinfoError('access_denied', 'client is not authorized to use the provider');
    const claims: Record<string, unknown> = { sub: entity.id };
    const scopes = token.scopes.filter((s) => provider.scopes_supported.includes(s));
    try {
      mergeClaims(claims, await scopeClaims(d, storage, entity, scopes));
    } catch (err) {
      if (err instanceof ScopeConflictError) return userinfoError('invalid_request', err.message);
      throw err;
    }
    return { raw: { status: 200, body: claims } };
  };
  return [
    definePath({
      pattern: 'oidc/provider/:name/.well-known/openid-configuration',
      fields: { name },
      operations: {
        read: {
          summary: 'The provider’s discovery document.',
          handler: async ({ storage, data }) => {
            await d.ensureDefaults(storage);
            const p = await providerStore.provider(storage, data.name);
            if (!p) return undefined;
            const body = discovery(providerIssuer(d, data.name, p), p);
            return { raw: { status: 200, body, headers: { 'Cache-Control': 'max-age=3600' } } };
          },
        },
      },
      help: { synopsis: 'OpenID discovery document of a provider.', description: 'Needs no token.' },
    }),
    definePath({
      pattern: 'oidc/provider/:name/.well-known/keys',
      fields: { name },
      operations: {
        read: {
          summary: 'The public keys that verify the provider’s ID tokens.',
          handler: async ({ storage, data }) => {
            await d.ensureDefaults(storage);
            const p = await providerStore.provider(storage, data.name);
            if (!p) return undefined;
            return { raw: { status: 200, body: await providerKeys(storage, p, d.clock.now()) } };
          },
        },
      },
      help: { synopsis: 'JSON Web Key Set of a provider.', description: 'Needs no token.' },
    }),
    definePath({
      pattern: 'oidc/provider/:name/userinfo',
      fields: userinfoFields,
      operations: {
        read: { summary: 'Claims about the access token’s entity.', handler: userinfo },
        update: { summary: 'Claims about the access token’s entity.', handler: userinfo },
      },
      help: {
        synopsis: 'OpenID Connect userinfo endpoint.',
        description: 'Authorization: Bearer <access token from the token endpoint>; sub plus the scopes’ claims.',
      },
    }),
  ];
}
