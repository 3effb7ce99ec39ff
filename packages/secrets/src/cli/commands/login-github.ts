import type { SecretAuth } from '@ward/secrets-client';
import type { CommandContext } from '../command.js';
import { UsageError } from '../flags.js';

/**
 * `ward login -method=github [token=…]`: the personal access token from `token=`, else
 * `VAULT_AUTH_GITHUB_TOKEN`, else asked for without echo (one line of stdin when it is not a
 * terminal), as established; only the token is sent. `mount=…` names the mount and wins over `-path`.
 */
export async function githubLogin(
  ctx: CommandContext,
  params: Record<string, string>,
  path: string | undefined,
): Promise<SecretAuth> {
  const given = params.token || ctx.env.VAULT_AUTH_GITHUB_TOKEN;
  const token = (given || (await ctx.readSecret('GitHub Personal Access Token (will be hidden): '))).trim();
  if (!token) throw new UsageError('no GitHub token given (token=…, VAULT_AUTH_GITHUB_TOKEN, the terminal, or stdin)');
  return ctx.client.login('github', { token }, params.mount || path || 'github');
}
