import { InvalidRequestError } from '../../logical/errors.js';
import { azureGroups, claimSourceUrl, clientCredentialsToken } from './azure-groups.js';
import { claimAt } from './claims.js';
import type { JwtConfig, JwtRole } from './jwt-store.js';
import type { Discovery } from './key-source.js';

/** What a login knows when it asks the configured provider (`provider_config`) for more. */
export interface ProviderLogin {
  config: JwtConfig;
  role: JwtRole;
  claims: Record<string, unknown>;
  discovery(): Promise<Discovery>;
  /** The OIDC flow's access token; absent for a `login` with a JWT. */
  accessToken?: string;
}

/**
 * The login's groups as the provider tells them, `undefined` when the token's groups claim stands:
 * `azure` fetches them from Microsoft Graph when the token has a group overage instead of the claim.
 */
export async function providerGroups(p: ProviderLogin): Promise<string[] | undefined> {
  const { config, role, claims } = p;
  if (config.provider_config.provider !== 'azure' || !role.groups_claim) return undefined;
  if (claimAt(claims, role.groups_claim) !== undefined) return undefined;
  const url = claimSourceUrl(claims, role.groups_claim);
  if (!p.accessToken && !config.oidc_discovery_url)
    throw new InvalidRequestError('unable to fetch groups: the group overage needs oidc_discovery_url for a token');
  const token = p.accessToken ?? (await clientCredentialsToken(config, await p.discovery(), url.origin));
  return azureGroups(url, token, config);
}
