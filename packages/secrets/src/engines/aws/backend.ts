import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { pathConfigs } from './path-config.js';
import { accessKeysSecret, type CredsDeps, pathCreds, stsKeysSecret } from './path-creds.js';
import { pathRoles } from './path-roles.js';
import { UsernameRenderer } from './usernames.js';
import { sweepUsersWal, WAL_SWEEP_INTERVAL_MS } from './users-wal.js';

const HELP =
  'The AWS secrets engine issues AWS credentials: IAM users with an access key under a lease (deleted when ' +
  'it ends), or temporary STS credentials (AssumeRole, GetFederationToken, GetSessionToken).';

/** Factory of the `aws` secrets engine. */
export function createAwsBackend(ctx: BackendContext): Backend {
  const deps: CredsDeps = {
    clock: ctx.clock,
    random: ctx.random,
    names: new UsernameRenderer({ clock: ctx.clock, random: ctx.random }),
    instanceId: Buffer.from(ctx.random.bytes(16)).toString('hex'),
  };
  const sweep = { storage: ctx.storage, clock: ctx.clock, logger: ctx.logger, instanceId: deps.instanceId };
  return createBackend({
    type: 'aws',
    storage: ctx.storage,
    help: HELP,
    paths: [...pathConfigs(), ...pathRoles(), ...pathCreds(deps)],
    secrets: [accessKeysSecret(deps), stsKeysSecret],
    periodic: [{ name: 'sweep-users-wal', intervalMs: WAL_SWEEP_INTERVAL_MS, run: () => sweepUsersWal(sweep) }],
  });
}
