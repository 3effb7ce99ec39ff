/** The `kv` engine, version 1 and 2, and the in-place upgrade from 1 to 2. @module */
import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { pathConfig } from './path-config.js';
import { pathData } from './path-data.js';
import { pathMetadata } from './path-metadata.js';
import { pathPassthrough } from './path-passthrough.js';
import { pathSubkeys } from './path-subkeys.js';
import { pathVersionActions } from './path-versions.js';
import { KvUpgrade, refuseVersion2Clashes, unavailableWhileUpgrading } from './upgrade.js';
import { VersionedStore } from './versioned-store.js';

const HELP_V1 = 'The KV engine (version 1) stores arbitrary secrets, encrypted, without versions.';
const HELP_V2 =
  'The KV engine (version 2) stores arbitrary secrets with a version history: ' +
  'write under `data/`, read history under `metadata/`, the shape of a secret under `subkeys/`, ' +
  'and delete, undelete or destroy versions.';

/**
 * Factory of the `kv` engine: version 1 by default, version 2 when the mount's `options.version` is
 * `2`. A version 2 mount that still holds version 1 keys (just upgraded, or stopped mid-upgrade)
 * upgrades them before it serves anything (`upgrade.ts`).
 */
export function createKvBackend(ctx: BackendContext): Backend {
  const version = ctx.options.version ?? '1';
  if (version === '1') {
    return createBackend({
      type: 'kv',
      storage: ctx.storage,
      help: HELP_V1,
      paths: [pathPassthrough(ctx.system)],
      checkOptionsChange: async (options) => {
        if (options.version === '2') await refuseVersion2Clashes(ctx.storage);
      },
    });
  }
  if (version !== '2') throw new InvalidRequestError(`unsupported kv version "${version}"; use 1 or 2`);
  return unavailableWhileUpgrading(createKvV2Backend(ctx), KvUpgrade.start(ctx));
}

function createKvV2Backend(ctx: BackendContext): Backend {
  const deps = { store: new VersionedStore(ctx.storage), locks: new KeyedMutex(), clock: ctx.clock };
  return createBackend({
    type: 'kv',
    storage: ctx.storage,
    help: HELP_V2,
    paths: [pathConfig(deps), pathData(deps), pathMetadata(deps), pathSubkeys(deps), ...pathVersionActions(deps)],
  });
}
