import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import { verifyGitHubUser } from './verify.js';

/** `login`: a GitHub personal access token in, a Ward token out (policies of the user's teams and of the user). */
export function pathLogin() {
  return definePath({
    pattern: 'login',
    fields: { token: field.string({ description: 'GitHub personal access token.' }) },
    operations: {
      update: {
        summary: 'Log in with a GitHub personal access token.',
        handler: async ({ storage, data, req }) => {
          if (!data.token) throw new InvalidRequestError('missing token');
          const verified = await verifyGitHubUser(storage, data.token, req.remoteAddress);
          const grant = tokenGrant(verified.config.token);
          const login = verified.user.login;
          return {
            login: {
              aliasName: login,
              displayName: login,
              metadata: { username: login, org: verified.org.login },
              ...grant,
              policies: [...new Set([...grant.policies, ...verified.policies])],
            },
            ...(verified.warnings.length > 0 ? { warnings: verified.warnings } : {}),
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with a GitHub token.',
      description:
        'Needs no Ward token. The token is sent to GitHub only (GET user, user/orgs, user/teams) and never kept. ' +
        'A token GitHub refuses, or a user outside the organization, gets 403.',
    },
  });
}
