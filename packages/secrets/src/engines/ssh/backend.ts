/** The `ssh` engine: an SSH CA signing OpenSSH certificates, and one-time passwords. @module */
import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { otpSecret, pathCreds, pathLookup, pathVerify, pathZeroAddress } from './otp.js';
import { pathConfigCa, pathPublicKey } from './path-config-ca.js';
import { pathListRoles, pathRoles } from './path-roles.js';
import { pathIssue, pathSign } from './path-sign.js';

const HELP =
  'The SSH engine signs SSH keys with its CA (roles of key_type "ca": user and host certificates in ' +
  'OpenSSH format) and issues one-time passwords for hosts running the SSH helper (key_type "otp").';

/** Factory of the `ssh` engine. */
export function createSshBackend(ctx: BackendContext): Backend {
  const d = { clock: ctx.clock, random: ctx.random, system: ctx.system };
  return createBackend({
    type: 'ssh',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathConfigCa(),
      pathPublicKey(),
      pathZeroAddress(),
      pathListRoles(),
      pathRoles(),
      pathCreds(ctx.random),
      pathVerify(),
      pathLookup(),
      pathSign(d),
      pathIssue(d),
    ],
    specialPaths: { unauthenticated: ['verify', 'public_key'] },
    secrets: [otpSecret()],
  });
}
