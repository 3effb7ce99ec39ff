import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { renewalUnder } from '../common/index.js';
import { awsAuthStore } from './aws-auth-store.js';
import { pathCertificates } from './path-certificate.js';
import { pathConfigs } from './path-config.js';
import { pathLists } from './path-lists.js';
import { pathLogin } from './path-login.js';
import { pathRoles } from './path-role.js';
import { pathRoleTag } from './path-role-tag.js';
import { pathStsRoles } from './path-sts-role.js';
import { periodicTidy } from './tidy.js';

const HELP =
  'The AWS auth method logs AWS principals in: iam roles with a signed sts:GetCallerIdentity request ' +
  '(forwarded to STS, which names the signer), ec2 roles with the instance identity document AWS signed. ' +
  '`login` needs no token.';

/** Factory of the `aws` auth method. */
export function createAwsAuthBackend(ctx: BackendContext): Backend {
  const maxTtlSeconds = () => ctx.system.maxLeaseTtlSeconds();
  return createBackend({
    type: 'aws',
    storage: ctx.storage,
    help: HELP,
    paths: [
      ...pathConfigs(),
      ...pathCertificates(),
      ...pathRoles(ctx.random, ctx.clock),
      ...pathStsRoles(),
      pathRoleTag(ctx.random),
      pathLogin({ clock: ctx.clock, random: ctx.random, maxTtlSeconds }),
      ...pathLists(ctx.clock, maxTtlSeconds),
    ],
    specialPaths: { unauthenticated: ['login'] },
    periodic: [{ name: 'tidy', intervalMs: 3600_000, run: () => periodicTidy(ctx.storage, ctx.clock.now()) }],
    // Renewal re-reads the role: current TTLs apply, a deleted role or changed policies stop renewal.
    async renewLogin({ metadata, policies }) {
      const role = metadata.role ? await awsAuthStore.role(ctx.storage, metadata.role) : undefined;
      if (!role || role.role_id !== metadata.role_id) return null;
      return renewalUnder(role.token, policies);
    },
  });
}
