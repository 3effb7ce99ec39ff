import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';
import type { JwtConfig } from './jwt-store.js';
import type { Discovery } from './key-source.js';

/**
 * The authorization code exchanged at the provider's token endpoint for an id token (and the
 * access token that comes with it, which a provider's group fetch uses)
 * (client_secret_basic, with the PKCE verifier). A code the provider refuses is a 400; a provider
 * that fails otherwise is a 502.
 */
export async function exchangeCode(
  config: JwtConfig,
  discovery: Discovery,
  code: string,
  redirectUri: string,
  codeVerifier: string,
): Promise<{ idToken: string; accessToken?: string }> {
  if (!discovery.token_endpoint) throw new UpstreamError('OIDC provider has no token_endpoint');
  // RFC 6749 §2.3.1: id and secret are form-encoded before they are joined for Basic.
  const basic = Buffer.from(
    `${encodeURIComponent(config.oidc_client_id)}:${encodeURIComponent(config.oidc_client_secret)}`,
  ).toString('base64');
  const answer = await requestJson({
    url: discovery.token_endpoint,
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    }).toString(),
    caPem: config.oidc_discovery_ca_pem || undefined,
    service: 'OIDC token endpoint',
  });
  const body = answer.body as
    | { id_token?: unknown; access_token?: unknown; error?: unknown; error_description?: unknown }
    | undefined;
  if (answer.status >= 400 && answer.status < 500)
    throw new InvalidRequestError(
      `error exchanging oidc code: ${String(body?.error ?? answer.status)}${body?.error_description ? `: ${String(body.error_description)}` : ''}`,
    );
  if (answer.status !== 200) throw new UpstreamError(`OIDC token endpoint answered ${answer.status}`);
  if (typeof body?.id_token !== 'string') throw new InvalidRequestError('no id_token found in response');
  return {
    idToken: body.id_token,
    ...(typeof body.access_token === 'string' ? { accessToken: body.access_token } : {}),
  };
}
