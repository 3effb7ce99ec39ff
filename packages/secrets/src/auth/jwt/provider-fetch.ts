import type { Clock } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import { azureGroups, claimSourceUrl, clientCredentialsToken } from './azure-groups.js';
import { claimAt } from './claims.js';
import { GsuiteDirectory, gsuiteSettings } from './gsuite-directory.js';
import type { JwtConfig, JwtRole } from './jwt-store.js';
import type { Discovery } from './key-source.js';

/** What a login knows when it asks the configured provider (`provider_config`) for more. */
export interface ProviderLogin {
  config: JwtConfig;
  role: JwtRole;
  claims: Record<string, unknown>;
  discovery(): Promise<Discovery>;
  clock: Clock;
  /** The OIDC flow's access token; absent for a `login` with a JWT. */
  accessToken?: string;
}

/** The claims the login goes on with, and its groups when the provider (not the token) tells them. */
export interface ProviderAnswer {
  claims: Record<string, unknown>;
  groups?: string[];
}

/**
 * What the configured provider adds to a verified token's claims: `azure` fetches the groups from
 * Microsoft Graph when the token has a group overage instead of the claim; `gsuite` fetches the
 * groups (`fetch_groups`) and custom schema fields as claims (`fetch_user_info`) from Google
 * Workspace. Other providers, and none, add nothing.
 */
export async function providerLogin(p: ProviderLogin): Promise<ProviderAnswer> {
  const provider = p.config.provider_config.provider;
  if (provider === 'azure') {
    const groups = await azureOverage(p);
    return groups ? { claims: p.claims, groups } : { claims: p.claims };
  }
  if (provider === 'gsuite') return gsuite(p);
  return { claims: p.claims };
}

async function azureOverage(p: ProviderLogin): Promise<string[] | undefined> {
  const { config, role, claims } = p;
  if (!role.groups_claim || claimAt(claims, role.groups_claim) !== undefined) return undefined;
  const url = claimSourceUrl(claims, role.groups_claim);
  if (!p.accessToken && !config.oidc_discovery_url)
    throw new InvalidRequestError('unable to fetch groups: the group overage needs oidc_discovery_url for a token');
  const token = p.accessToken ?? (await clientCredentialsToken(config, await p.discovery(), url.origin));
  return azureGroups(url, token, config);
}

async function gsuite(p: ProviderLogin): Promise<ProviderAnswer> {
  const s = gsuiteSettings(p.config.provider_config);
  const wantsGroups = s.fetchGroups && p.role.groups_claim !== '';
  const wantsInfo = s.fetchUserInfo && s.userCustomSchemas !== '';
  if (!wantsGroups && !wantsInfo) return { claims: p.claims };
  // As established, the directory is asked about the user the role's user_claim names.
  const userKey = claimAt(p.claims, p.role.user_claim);
  if (typeof userKey !== 'string' || userKey === '')
    throw new InvalidRequestError(`unable to locate "${p.role.user_claim}" in claims for the Google Workspace lookup`);
  const directory = await GsuiteDirectory.open(s, p.clock);
  const claims = wantsInfo ? { ...p.claims, ...(await directory.customClaims(userKey)) } : p.claims;
  if (!wantsGroups) return { claims };
  return { claims, groups: await directory.groups(userKey) };
}
