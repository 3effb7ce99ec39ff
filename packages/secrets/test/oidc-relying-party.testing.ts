import * as oidc from 'openid-client';

/**
 * What a relying party (openid-client) holds once it sends a user to Ward's OpenID provider: the
 * configuration from discovery, and the PKCE verifier, state and nonce the authorization URL carries.
 */
export interface Authorization {
  config: oidc.Configuration;
  verifier: string;
  state: string;
  nonce: string;
  authUrl: URL;
}

/**
 * Discovers the provider at `issuer` as the confidential `client` (over plain HTTP, as the test
 * servers serve it) and builds an authorization-code URL with PKCE (S256), a state and a nonce,
 * asking for `scope` with the answer sent to `redirectUri`.
 */
export async function startAuthorization(
  issuer: URL,
  client: { client_id: string; client_secret: string },
  redirectUri: string,
  scope: string,
): Promise<Authorization> {
  const config = await oidc.discovery(issuer, client.client_id, client.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const authUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { config, verifier, state, nonce, authUrl };
}
