import { devDefaultMounts } from '../catalog.js';
import type { WardServer } from './build-server.js';

export interface DevCredentials {
  /** The single unseal key, base64. */
  unsealKey: string;
  rootToken: string;
}

export interface DevOptions {
  /** The version of the KV engine at `secret/`: 2 as established, 1 with `-dev-kv-v1`. */
  kvVersion?: '1' | '2';
}

/**
 * Dev mode: initialise with one key share and KV at `secret/`, unseal, and optionally replace
 * the root token with one whose text the operator chose (`-dev-root-token-id`).
 */
export async function initializeDev(
  server: WardServer,
  rootTokenId?: string,
  options: DevOptions = {},
): Promise<DevCredentials> {
  const { core } = server;
  const mounts = devDefaultMounts(options.kvVersion);
  const { keys, rootToken } = await core.initialize({ shares: 1, threshold: 1, mounts });
  const key = keys[0];
  if (!key) throw new Error('initialisation returned no key share');
  await core.submitUnsealKey(Buffer.from(key).toString('base64'));
  if (!rootTokenId) return { unsealKey: Buffer.from(key).toString('base64'), rootToken };
  await core.tokens.createRoot(rootTokenId);
  await core.tokens.revoke(rootToken);
  return { unsealKey: Buffer.from(key).toString('base64'), rootToken: rootTokenId };
}
