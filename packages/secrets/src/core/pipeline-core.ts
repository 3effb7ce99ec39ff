import type { AuditDevices } from './audit/index.js';
import type { ExpirationManager } from './expiration/index.js';
import type { NamespaceServices } from './namespaces/namespace-services.js';
import type { Router } from './router/router.js';
import type { SystemTtls } from './router/system-ttls.js';
import type { TokenStore } from './tokens/index.js';
import type { ResponseWrapping } from './wrapping/index.js';

/** The parts of the core the request pipeline uses (the core passes itself; this never imports it). */
export interface PipelineCore {
  isSealed(): boolean;
  /** Namespaces and their policies and identities; throws `SealedError` while sealed. */
  namespaceServices(): NamespaceServices;
  readonly router: Router;
  readonly tokens: TokenStore;
  readonly audit: AuditDevices;
  /** Registers the leases of secrets that backends issue. */
  readonly expiration: ExpirationManager;
  /** Server version, for the OpenAPI document of help. */
  readonly version: string;
  /** Wraps the responses of requests that ask for it (`X-Vault-Wrap-TTL`). */
  readonly wrapping: Pick<ResponseWrapping, 'wrap'>;
  /** `default_lease_ttl` and `max_lease_ttl`: what tokens and leases get where their mount sets none. */
  readonly systemTtls: SystemTtls;
}
