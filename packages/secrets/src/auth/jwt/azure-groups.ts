import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';
import { claimAt } from './claims.js';
import type { JwtConfig } from './jwt-store.js';
import type { Discovery } from './key-source.js';

/**
 * The `azure` provider's group overage, as established: a user in more groups than fit in a token
 * gets no groups claim but `_claim_names.<groups_claim>` naming a source in `_claim_sources`, whose
 * endpoint is Microsoft Graph's `getMemberObjects` for the user. The groups are fetched there
 * (POST `{"securityEnabledOnly": false}`) with a bearer token: the OIDC flow's access token, or for
 * a `login` with a JWT the client's own (client credentials at the provider's token endpoint). The
 * retired Azure AD Graph host in an endpoint is replaced by Microsoft Graph v1.0.
 */

const AZURE_AD_GRAPH_HOST = 'graph.windows.net';
const MICROSOFT_GRAPH_HOST = 'graph.microsoft.com';
/** Graph answers at most this many ids per call; more pages are not followed by the established method either. */
const MAX_GROUPS = 10_000;

/** The Graph URL the token's claim source names for the groups claim. */
export function claimSourceUrl(claims: Record<string, unknown>, groupsClaim: string): URL {
  const source = claimAt(claims, `/_claim_names/${groupsClaim}`);
  if (typeof source !== 'string')
    throw new InvalidRequestError(
      `unable to get claim sources: unable to locate groups claim "${groupsClaim}" in _claim_names`,
    );
  const endpoint = claimAt(claims, `/_claim_sources/${source}/endpoint`);
  if (typeof endpoint !== 'string')
    throw new InvalidRequestError(`unable to get claim sources: unable to locate /_claim_sources/${source}/endpoint`);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new InvalidRequestError('unable to get claim sources: the endpoint is not a URL');
  }
  if (url.protocol !== 'https:')
    throw new InvalidRequestError('unable to get claim sources: the endpoint is not https');
  if (url.hostname === AZURE_AD_GRAPH_HOST) {
    url.hostname = MICROSOFT_GRAPH_HOST;
    url.pathname = `/v1.0${url.pathname}`;
  }
  return url;
}

/** The client's own token for `resource` (the Graph origin): client credentials at the token endpoint. */
export async function clientCredentialsToken(config: JwtConfig, discovery: Discovery, resource: string) {
  if (!config.oidc_client_id || !config.oidc_client_secret || !discovery.token_endpoint)
    throw new InvalidRequestError(
      'unable to fetch groups: the group overage needs oidc_client_id and oidc_client_secret for a token',
    );
  const v2 = discovery.token_endpoint.includes('/v2.0/');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: config.oidc_client_id,
    client_secret: config.oidc_client_secret,
  });
  // Entra's v2 endpoint takes scopes, its v1 endpoint a resource.
  if (v2) form.set('scope', `${resource}/.default`);
  else form.set('resource', resource);
  const answer = await requestJson({
    url: discovery.token_endpoint,
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    caPem: config.oidc_discovery_ca_pem || undefined,
    service: 'OIDC token endpoint',
  });
  const token = (answer.body as { access_token?: unknown } | undefined)?.access_token;
  if (answer.status !== 200 || typeof token !== 'string')
    throw new UpstreamError(`unable to get token: the token endpoint answered ${answer.status}`);
  return token;
}

/** The group ids Graph lists for the user at `url`. */
export async function azureGroups(url: URL, accessToken: string, config: JwtConfig): Promise<string[]> {
  const answer = await requestJson({
    url: url.toString(),
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ securityEnabledOnly: false }),
    caPem: config.oidc_discovery_ca_pem || undefined,
    service: 'Microsoft Graph',
  });
  if (answer.status !== 200) throw new UpstreamError(`failed to get groups: Microsoft Graph answered ${answer.status}`);
  const value = (answer.body as { value?: unknown } | undefined)?.value;
  if (!Array.isArray(value) || value.length > MAX_GROUPS || !value.every((v) => typeof v === 'string'))
    throw new UpstreamError('failed to get groups: Microsoft Graph answered no list of ids');
  return value;
}
