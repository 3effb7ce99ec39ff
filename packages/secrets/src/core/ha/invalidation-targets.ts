import type { AesGcmBarrier } from '../barrier/index.js';
import type { TokenStore } from '../tokens/index.js';
import type { InvalidationTargets } from './cache-invalidation.js';

/** The part of the namespace services that holds per-namespace caches. */
interface NamespaceCaches {
  isOpen(namespaceId: string): boolean;
  policies(namespaceId: string): { invalidate(name: string): void };
  identity(namespaceId: string): { reloadRecord(key: string): Promise<void> };
}

/** The caches of one server, as the change feed reaches them; namespaces not open have nothing cached. */
export function invalidationTargets(parts: {
  barrier: AesGcmBarrier;
  tokens: TokenStore;
  services: () => NamespaceCaches | undefined;
}): InvalidationTargets {
  const openServices = (namespaceId: string) => {
    const services = parts.services();
    return services?.isOpen(namespaceId) ? services : undefined;
  };
  return {
    forgetValue: (key) => parts.barrier.forgetCached(key),
    reloadKeyring: () => parts.barrier.reloadKeyring(),
    forgetToken: (key) => parts.tokens.invalidate(key),
    forgetPolicy: (namespaceId, name) => openServices(namespaceId)?.policies(namespaceId).invalidate(name),
    reloadIdentity: async (namespaceId, key) => {
      await openServices(namespaceId)?.identity(namespaceId).reloadRecord(key);
    },
  };
}
