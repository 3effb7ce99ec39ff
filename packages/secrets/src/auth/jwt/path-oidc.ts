import type { Clock, Logger } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { validateClaims } from './claims.js';
import type { JwtConfig } from './jwt-store.js';
import type { KeySource } from './key-source.js';
import { loginFor } from './login-grant.js';
import { exchangeCode } from './oidc-exchange.js';
import type { OidcStates } from './oidc-states.js';
import { providerLogin } from './provider-fetch.js';
import { resolveRole } from './resolve-role.js';

export interface OidcDeps {
  keys: KeySource;
  states: OidcStates;
  clock: Clock;
  logger: Logger;
}

const requireClient = (config: JwtConfig) => {
  if (!config.oidc_discovery_url || !config.oidc_client_id)
    throw new InvalidRequestError('OIDC login is not configured for this mount');
};

/** `oidc/auth_url`: starts an authorization-code flow (state, nonce, PKCE) and answers where to send the browser. */
function pathAuthUrl(d: OidcDeps) {
  return definePath({
    pattern: 'oidc/auth_url',
    fields: {
      role: field.string({ description: 'The oidc role (default: default_role).' }),
      redirect_uri: field.string({
        description: 'Where the provider sends the browser back; one of the role’s allowed_redirect_uris.',
      }),
      client_nonce: field.string({
        description: 'A nonce the callback must repeat (the CLI’s, to bind the flow to it).',
      }),
    },
    operations: {
      update: {
        summary: 'Get the authorization URL of a new OIDC login.',
        handler: async ({ storage, data }) => {
          const { config, roleName, role } = await resolveRole(storage, data.role);
          if (role.role_type !== 'oidc') throw new InvalidRequestError(`role "${roleName}" is not an OIDC role`);
          requireClient(config);
          const redirectUri = data.redirect_uri ?? '';
          if (!redirectUri) throw new InvalidRequestError('missing redirect_uri');
          if (!role.allowed_redirect_uris.includes(redirectUri))
            throw new InvalidRequestError(`unauthorized redirect_uri: ${redirectUri}`);
          const discovery = await d.keys.discovery(config);
          const { state, nonce, challenge } = await d.states.start(
            storage,
            roleName,
            redirectUri,
            data.client_nonce ?? '',
          );
          // client_id first: clients look for `?client_id=` right after the endpoint.
          const query = new URLSearchParams({ client_id: config.oidc_client_id });
          query.set('code_challenge', challenge);
          query.set('code_challenge_method', 'S256');
          query.set('nonce', nonce);
          query.set('redirect_uri', redirectUri);
          query.set('response_type', config.oidc_response_types.includes('id_token') ? 'id_token' : 'code');
          if (config.oidc_response_mode === 'form_post') query.set('response_mode', 'form_post');
          query.set('scope', ['openid', ...role.oidc_scopes.filter((s) => s !== 'openid')].join(' '));
          query.set('state', state);
          if (role.max_age > 0) query.set('max_age', String(role.max_age));
          const base = discovery.authorization_endpoint;
          return { data: { auth_url: `${base}${base.includes('?') ? '&' : '?'}${query.toString()}` } };
        },
      },
    },
    help: {
      synopsis: 'Start an OIDC login.',
      description:
        'Needs no token. The state is valid for 10 minutes and once; the code is bound to it by PKCE (S256).',
    },
  });
}

/** `oidc/callback`: the provider's answer (query, or form_post), exchanged and checked, becomes a login. */
function pathCallback(d: OidcDeps) {
  const fields = {
    state: field.string({ description: 'The state of the flow.' }),
    code: field.string({ description: 'The authorization code.' }),
    id_token: field.string({ description: 'The id token (response_type id_token, form_post).' }),
    client_nonce: field.string({ description: 'The nonce given to auth_url.' }),
    error: field.string({ description: 'The provider’s error code, when it refused.' }),
    error_description: field.string({ description: 'The provider’s error text.' }),
  };
  const handler = async ({
    storage,
    data,
  }: {
    storage: import('../../logical/storage.js').Storage;
    data: { [K in keyof typeof fields]?: string };
  }) => {
    const flow = data.state ? await d.states.take(storage, data.state) : undefined;
    if (!flow) throw new InvalidRequestError('Expired or missing OAuth state.');
    if (data.error)
      throw new InvalidRequestError(
        `login failed at the provider: ${data.error}${data.error_description ? `: ${data.error_description}` : ''}`,
      );
    if (flow.clientNonce && flow.clientNonce !== (data.client_nonce ?? ''))
      throw new InvalidRequestError('invalid client_nonce');
    const { config, role } = await resolveRole(storage, flow.roleName);
    requireClient(config);
    const discovery = await d.keys.discovery(config);
    let idToken = data.id_token ?? '';
    let accessToken: string | undefined;
    if (data.code)
      ({ idToken, accessToken } = await exchangeCode(
        config,
        discovery,
        data.code,
        flow.redirectUri,
        flow.codeVerifier,
      ));
    else if (!idToken || !config.oidc_response_types.includes('id_token'))
      throw new InvalidRequestError('No code or id_token received.');
    const claims = await d.keys.verify(config, idToken);
    if (claims.nonce !== flow.nonce) throw new InvalidRequestError('invalid ID token nonce');
    // An id token is for this client: aud must name it (and the role's bound_audiences, if any).
    const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    if (!audiences.includes(config.oidc_client_id))
      throw new InvalidRequestError('error validating claims: invalid audience (aud) claim');
    const nowSeconds = Math.floor(d.clock.now() / 1000);
    validateClaims(claims, role, nowSeconds, discovery.issuer);
    if (
      role.max_age > 0 &&
      !(typeof claims.auth_time === 'number' && nowSeconds - claims.auth_time <= role.max_age + 60)
    )
      throw new InvalidRequestError('error validating claims: auth_time is older than max_age');
    if (role.verbose_oidc_logging) d.logger.info('oidc login claims', { role: flow.roleName, claims });
    const provided = await providerLogin({
      config,
      role,
      claims,
      discovery: async () => discovery,
      clock: d.clock,
      ...(accessToken ? { accessToken } : {}),
    });
    return loginFor(flow.roleName, role, provided.claims, provided.groups);
  };
  return definePath({
    pattern: 'oidc/callback',
    fields,
    operations: {
      read: { summary: 'Finish an OIDC login (the provider’s answer in the query).', handler },
      update: { summary: 'Finish an OIDC login (form_post).', handler },
    },
    help: {
      synopsis: 'Finish an OIDC login.',
      description:
        'Needs no token. The code is exchanged at the provider with the PKCE verifier; the id token must be signed by ' +
        'the provider, carry the flow’s nonce and the client id as audience, and pass the role’s bounds.',
    },
  });
}

export function pathOidc(d: OidcDeps): PathDefinition[] {
  return [pathAuthUrl(d), pathCallback(d)];
}
