import { systemClock } from '@ward/base';
import type { SecretAuth } from '@ward/secrets-client';
import type { CommandContext } from '../command.js';
import { UsageError } from '../flags.js';
import { awsLoginParams } from './login-aws.js';
import { gcpLoginJwt } from './login-gcp.js';

/** The methods whose login the CLI builds from the caller's cloud credentials. */
export const CLOUD_LOGIN_METHODS = new Set(['aws', 'gcp']);

/**
 * `ward login -method=aws|gcp`: the established helpers. As there, `mount=…` names the mount
 * and wins over `-path`; the default is the method's name.
 */
export async function cloudLogin(
  ctx: CommandContext,
  method: string,
  params: Record<string, string>,
  path: string | undefined,
): Promise<SecretAuth> {
  const mount = params.mount || path || method;
  if (method === 'aws') return ctx.client.login('aws', await awsLoginParams(params, ctx.env, () => new Date()), mount);
  const role = params.role;
  if (!role) throw new UsageError('login -method=gcp needs role=…');
  const jwt = params.jwt ?? (await gcpLoginJwt(params, ctx.env, (p) => ctx.readFile(p), systemClock));
  return ctx.client.login('gcp', { role, jwt }, mount);
}
