import { isAddressInCidrs } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type GitHubConfig, githubStore, policyMaps } from './config-store.js';
import { DEFAULT_BASE_URL, GitHubApi, type GitHubOrg, type GitHubUser } from './github-api.js';

/** Who a GitHub token belongs to, in the configured organization, and what the mappings grant. */
export interface VerifiedUser {
  config: GitHubConfig;
  user: GitHubUser;
  org: GitHubOrg;
  /** Names and slugs of the user's teams in the organization. */
  teamNames: string[];
  /** Policies of those teams and of the user (without the config's `token_policies`). */
  policies: string[];
  warnings: string[];
}

/**
 * Asks GitHub who the token's user is, checks by id that they are in the organization, and
 * collects their teams there, as the established method does. Refusals: no config (400), a
 * client outside `token_bound_cidrs`, a token GitHub refuses or a user outside the org (403).
 */
export async function verifyGitHubUser(storage: Storage, token: string, remoteAddress: string): Promise<VerifiedUser> {
  const config = await githubStore.config(storage);
  if (!config) throw new InvalidRequestError('configuration has not been set');
  // Checked before GitHub is asked anything; the core checks it again for the token.
  if (config.token.token_bound_cidrs.length > 0 && !isAddressInCidrs(config.token.token_bound_cidrs, remoteAddress))
    throw PermissionDeniedError.denied();
  const github = new GitHubApi(config.base_url || DEFAULT_BASE_URL, token);
  const user = await github.user();
  const org = (await github.organizations()).find((o) => o.id === config.organization_id);
  if (!org) throw new PermissionDeniedError('user is not part of required org');
  const warnings =
    org.login === config.organization
      ? []
      : [
          `the organization name has changed to "${org.login}". It is recommended to verify and update the ` +
            `organization name in the config: organization_id=${config.organization_id}`,
        ];
  const teamNames = (await github.teams())
    .filter((t) => t.organizationId === org.id)
    .flatMap((t) => (t.slug === t.name ? [t.name] : [t.name, t.slug]));
  const policies = [
    ...new Set([
      ...(await policyMaps.policies(storage, 'teams', teamNames)),
      ...(await policyMaps.policies(storage, 'users', [user.login])),
    ]),
  ];
  return { config, user, org, teamNames, policies, warnings };
}
