import { createHash, timingSafeEqual } from 'node:crypto';
import { definePath, field, type HandlerContext, type PathDefinition } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { mergeClaims } from './claims-template.js';
import { base62, keyWithMaterial } from './path-oidc-clients.js';
import { hashClaim, ScopeConflictError, scopeClaims, signWithKey } from './provider-claims.js';
import { allowsClient, isAssigned, type ProviderDeps, providerIssuer } from './provider-deps.js';
import { type AuthCodeRecord, type ClientRecord, providerStore } from './provider-store.js';

/** RFC 6749 5.2 errors as established: JSON, never cached; a client that failed to authenticate gets 401. */
function tokenError(error: string, description: string) {
  const status = error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (error === 'invalid_client') headers['WWW-Authenticate'] = 'Basic';
  return { raw: { status, body: { error, error_description: description }, headers } };
}

/** `Authorization: Basic` credentials (client_secret_basic), as Go's `BasicAuth` reads them. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const text = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon === -1 ? undefined : { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

/** Compares secrets in time independent of where they differ. */
const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** RFC 7636 4.6: whether the verifier answers the challenge. */
function verifierMatches(code: AuthCodeRecord, verifier: string): boolean {
  const computed =
    code.code_challenge_method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return sameSecret(computed, code.code_challenge);
}

/**
 * `oidc/provider/:name/token`: the token endpoint (no Ward token: the client authenticates
 * with client_secret_basic or client_secret_post, a public client with PKCE alone). Exchanges
 * a code once for an access token and a signed ID token.
 */
export function pathOidcProviderToken(d: ProviderDeps): PathDefinition {
  const fields = {
    name: field.path({ description: 'Name of the provider.' }),
    grant_type: field.string({ description: 'Only `authorization_code`.' }),
    code: field.string({ description: 'The code authorize granted.' }),
    redirect_uri: field.string({ description: 'The redirect_uri of the authorization request.' }),
    code_verifier: field.string({ description: 'PKCE verifier, when the request had a challenge.' }),
    client_id: field.string({ description: 'client_secret_post: the client id.' }),
    client_secret: field.string({ description: 'client_secret_post: the client secret.' }),
  };
  const handler = async ({ storage, data, req }: HandlerContext<typeof fields>) => {
    await d.ensureDefaults(storage);
    const provider = await providerStore.provider(storage, data.name);
    if (!provider) return tokenError('invalid_request', 'provider not found');
    const basic = basicCredentials(req.authorization);
    const clientId = basic?.id ?? data.client_id ?? '';
    if (clientId === '') return tokenError('invalid_request', 'client_id parameter is required');
    const client = await providerStore.clientById(storage, clientId);
    if (!client) return tokenError('invalid_client', 'client failed to authenticate');
    if (
      client.client_type === 'confidential' &&
      !sameSecret(client.client_secret, basic?.secret ?? data.client_secret ?? '')
    )
      return tokenError('invalid_client', 'client failed to authenticate');
    if (!allowsClient(provider.allowed_client_ids, clientId))
      return tokenError('invalid_client', 'client is not authorized to use the provider');
    const key = await keyWithMaterial(storage, client.key, d);
    if (!key) return tokenError('server_error', `client key "${client.key}" not found`);
    if (!allowsClient(key.allowed_client_ids, clientId))
      return tokenError('invalid_client', 'client is not authorized to use the key');
    if (data.grant_type !== 'authorization_code')
      return tokenError('unsupported_grant_type', 'unsupported grant_type or parameter is empty value');
    if (!data.code) return tokenError('invalid_request', 'code parameter is required');
    const code = await providerStore.code(storage, data.code);
    // A code is good for one exchange, whatever its outcome.
    if (code) await providerStore.deleteCode(storage, data.code);
    if (!code || code.expires_at_ms <= d.clock.now())
      return tokenError('invalid_grant', 'authorization grant is invalid or expired');
    const refusal = await checkExchange(d, storage, {
      name: data.name,
      client,
      code,
      redirect_uri: data.redirect_uri,
      code_verifier: data.code_verifier,
    });
    if (refusal) return refusal;
    const entity = d.store.resolveEntity(code.entity_id);
    if (!entity) return tokenError('invalid_request', 'identity entity associated with the request not found');

    const accessToken = base62(d.random, 32);
    const nowMs = d.clock.now();
    await providerStore.putAccessToken(storage, accessToken, {
      provider: data.name,
      client_id: clientId,
      entity_id: entity.id,
      scopes: code.scopes,
      expires_at_ms: nowMs + client.access_token_ttl * 1000,
    });
    let templates: string[];
    try {
      templates = await scopeClaims(d, storage, entity, code.scopes);
    } catch (err) {
      if (err instanceof ScopeConflictError) return tokenError('invalid_request', err.message);
      throw err;
    }
    const now = Math.floor(nowMs / 1000);
    const claims: Record<string, unknown> = {
      iss: providerIssuer(d, data.name, provider),
      namespace: d.namespace.id,
      sub: entity.id,
      aud: clientId,
      exp: now + client.id_token_ttl,
      iat: now,
      at_hash: hashClaim(key.algorithm, accessToken),
      c_hash: hashClaim(key.algorithm, data.code),
    };
    if (code.nonce !== '') claims.nonce = code.nonce;
    mergeClaims(claims, templates);
    const body = {
      token_type: 'Bearer',
      access_token: accessToken,
      id_token: await signWithKey(key, claims),
      expires_in: client.access_token_ttl,
    };
    return { raw: { status: 200, body, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } } };
  };
  return definePath({
    pattern: 'oidc/provider/:name/token',
    fields,
    operations: { update: { summary: 'Exchange an authorization code for tokens.', handler } },
    help: {
      synopsis: 'OpenID Connect token endpoint.',
      description:
        'grant_type=authorization_code with code, redirect_uri and (PKCE) code_verifier. Needs no Ward token.',
    },
  });
}

/** The code's binding to this provider, client, redirect and PKCE verifier, and the entity still assigned. */
async function checkExchange(
  d: ProviderDeps,
  storage: Storage,
  x: { name: string; client: ClientRecord; code: AuthCodeRecord; redirect_uri?: string; code_verifier?: string },
) {
  const { client, code } = x;
  if (code.client_id !== client.client_id)
    return tokenError('invalid_grant', 'authorization code was not issued to the client');
  if (code.provider !== x.name) return tokenError('invalid_grant', 'authorization code was not issued by the provider');
  if (!x.redirect_uri) return tokenError('invalid_request', 'redirect_uri parameter is required');
  if (code.redirect_uri !== x.redirect_uri)
    return tokenError(
      'invalid_grant',
      'redirect_uri does not match the redirect_uri used in the authorization request',
    );
  const entity = d.store.resolveEntity(code.entity_id);
  if (!entity) return tokenError('invalid_request', 'identity entity associated with the request not found');
  if (!(await isAssigned(d, storage, entity, client.assignments)))
    return tokenError('invalid_request', 'identity entity not authorized by client assignment');
  const usedPkce = code.code_challenge !== '';
  const verifier = x.code_verifier ?? '';
  if (!usedPkce && client.client_type === 'public')
    return tokenError('invalid_request', 'PKCE is required for public clients');
  if (!usedPkce && verifier !== '') return tokenError('invalid_request', 'unexpected code_verifier for token exchange');
  if (usedPkce && verifier === '') return tokenError('invalid_request', 'expected code_verifier for token exchange');
  if (usedPkce && !verifierMatches(code, verifier))
    return tokenError('invalid_grant', 'invalid code_verifier for token exchange');
  return undefined;
}
