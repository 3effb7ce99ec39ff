import { definePath, field, type HandlerContext, type PathDefinition } from '../../framework/index.js';
import type { LogicalResponse } from '../../logical/response.js';
import { base62 } from './path-oidc-clients.js';
import { allowsClient, isAssigned, type ProviderDeps } from './provider-deps.js';
import { type ProviderRecord, providerStore } from './provider-store.js';

/** How long a granted code can be exchanged, as established. */
const CODE_TTL_MS = 5 * 60_000;

/** The answer of `authorize` as established: raw JSON, `{code, state}` or `{error, error_description, state}`. */
function authResponse(state: string, result: { code: string } | { error: string; description: string }) {
  if ('code' in result) return { raw: { status: 200, body: { code: result.code, state } } } satisfies LogicalResponse;
  const status = result.error === 'server_error' ? 500 : 400;
  return { raw: { status, body: { error: result.error, error_description: result.description, state } } };
}

/** RFC 8252 7.3: a loopback redirect matches whatever its port; any other must be listed exactly. */
export function isAllowedRedirect(uri: string, allowed: readonly string[]): boolean {
  let input: URL;
  try {
    input = new URL(uri);
  } catch {
    return false;
  }
  if (!['localhost', '127.0.0.1', '[::1]'].includes(input.hostname)) return allowed.includes(uri);
  const portless = (u: URL) => {
    const copy = new URL(u.href);
    copy.port = '';
    return copy.href;
  };
  return allowed.some((a) => {
    try {
      return portless(new URL(a)) === portless(input);
    } catch {
      return false;
    }
  });
}

/** The requested scopes the provider supports (`openid` aside); `undefined` without `openid`. */
export function requestedScopes(scope: string, provider: ProviderRecord): string[] | undefined {
  const asked = [...new Set(scope.split(' ').filter((s) => s !== ''))].sort();
  if (!asked.includes('openid')) return undefined;
  return asked.filter((s) => s !== 'openid' && provider.scopes_supported.includes(s));
}

/**
 * `oidc/provider/:name/authorize`: the authorization endpoint. The caller is the end user,
 * signed in to Ward (a token with an entity); the answer carries the code the relying party
 * exchanges at `token`. PKCE (`S256` or `plain`) is required of public clients.
 */
export function pathOidcAuthorize(d: ProviderDeps): PathDefinition {
  const fields = {
    name: field.path({ description: 'Name of the provider.' }),
    client_id: field.string({ description: 'The client asking.' }),
    redirect_uri: field.string({ description: 'Where the code goes; one of the client’s redirect_uris.' }),
    scope: field.string({ description: 'Space-separated scopes; must include openid.' }),
    response_type: field.string({ description: 'Only `code`.' }),
    state: field.string({ description: 'Echoed back to the client.' }),
    nonce: field.string({ description: 'Put into the ID token.' }),
    code_challenge: field.string({ description: 'PKCE challenge (43 to 128 characters).' }),
    code_challenge_method: field.string({ description: '`S256` or `plain` (default).' }),
    max_age: field.int({ description: 'Not supported: refused.' }),
    request: field.string({ description: 'Not supported: refused.' }),
    request_uri: field.string({ description: 'Not supported: refused.' }),
  };
  const handler = async ({ storage, data, supplied, req }: HandlerContext<typeof fields>) => {
    const state = data.state ?? '';
    const fail = (error: string, description: string) => authResponse(state, { error, description });
    const clientId = data.client_id ?? '';
    if (clientId === '') return fail('invalid_client_id', 'client_id parameter is required');
    const client = await providerStore.clientById(storage, clientId);
    if (!client) return fail('invalid_client_id', 'client with client_id not found');
    const redirectUri = data.redirect_uri ?? '';
    if (redirectUri === '') return fail('invalid_request', 'redirect_uri parameter is required');
    if (!isAllowedRedirect(redirectUri, client.redirect_uris))
      return fail('invalid_redirect_uri', 'redirect_uri is not allowed for the client');
    await d.ensureDefaults(storage);
    const provider = await providerStore.provider(storage, data.name);
    if (!provider) return fail('invalid_request', 'provider not found');
    if (!allowsClient(provider.allowed_client_ids, clientId))
      return fail('unauthorized_client', 'client is not authorized to use the provider');
    if (supplied.has('request')) return fail('request_not_supported', 'request parameter is not supported');
    if (supplied.has('request_uri')) return fail('request_uri_not_supported', 'request_uri parameter is not supported');
    const scopes = requestedScopes(data.scope ?? '', provider);
    if (!scopes) return fail('invalid_request', 'scope parameter must contain the "openid" value');
    if (!data.response_type) return fail('invalid_request', 'response_type parameter is required');
    if (data.response_type !== 'code') return fail('unsupported_response_type', 'unsupported response_type value');
    const entityId = req.caller?.entityId ?? '';
    if (entityId === '') return fail('access_denied', 'identity entity must be associated with the request');
    const entity = d.store.resolveEntity(entityId);
    if (!entity) return fail('access_denied', 'identity entity associated with the request not found');
    if (!(await isAssigned(d, storage, entity, client.assignments)))
      return fail('access_denied', 'identity entity not authorized by client assignment');
    const challenge = data.code_challenge ?? '';
    if (challenge === '' && client.client_type === 'public')
      return fail('invalid_request', 'PKCE is required for public clients');
    const method = challenge === '' ? '' : data.code_challenge_method || 'plain';
    if (method !== '' && method !== 'plain' && method !== 'S256')
      return fail('invalid_request', 'invalid code_challenge_method');
    if (challenge !== '' && (challenge.length < 43 || challenge.length > 128))
      return fail('invalid_request', 'invalid code_challenge');
    if (supplied.has('max_age')) return fail('invalid_request', 'max_age is not supported by this server');
    const code = base62(d.random, 32);
    await providerStore.putCode(storage, code, {
      provider: data.name,
      client_id: clientId,
      entity_id: entity.id,
      redirect_uri: redirectUri,
      nonce: data.nonce ?? '',
      scopes,
      code_challenge: challenge,
      code_challenge_method: method,
      expires_at_ms: d.clock.now() + CODE_TTL_MS,
    });
    return authResponse(state, { code });
  };
  const summary = 'Grant an authorization code to a client for the caller’s entity.';
  return definePath({
    pattern: 'oidc/provider/:name/authorize',
    fields,
    operations: { read: { summary, handler }, update: { summary, handler } },
    help: {
      synopsis: 'OpenID Connect authorization endpoint.',
      description: 'Needs a Ward token with an entity (the default policy allows it); answers {code, state}.',
    },
  });
}
