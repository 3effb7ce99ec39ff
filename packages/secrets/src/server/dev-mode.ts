import type { WardServer } from './build-server.js';

export interface DevCredentials {
  /** The single unseal key, base64. */
  unsealKey: string;
  rootToken: string;
}

/**
 * Dev mode: initialise with one key share, unseal, and optionally replace the root
 * token with one whose text the operator chose (`-dev-root-token-id`).
 */
export async function initializeDev(server: WardServer, rootTokenId?: string): Promise<DevCredentials> {
  const { core } = server;
  const { keys, rootToken } = await core.initialize({ shares: 1, threshold: 1 });
  const key = keys[0];
  if (!key) throw new Error('initialisation returned no key share');
  await core.submitUnsealKey(Buffer.from(key).toString('base64'));
  if (!rootTokenId) return { unsealKey: Buffer.from(key).toString('base64'), rootToken };
  await core.tokens.createRoot(rootTokenId);
  await core.tokens.revoke(rootToken);
  return { unsealKey: Buffer.from(key).toString('base64'), rootToken: rootTokenId };
}
