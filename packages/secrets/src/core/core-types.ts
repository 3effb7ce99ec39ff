import type { Clock, Logger, Random } from '@ward/base';
import type { CoreSealStatus } from '@ward/secrets-client';
import type { StorageBackend } from '../storage/index.js';
import type { HaOptions } from './ha/index.js';
import type { BuiltinBackends } from './namespaces/builtin-mounts.js';
import type { ManagedKeyLookup } from './router/managed-key-access.js';
import type { BackendCatalog, MountInput } from './router/mounts.js';
import type { SystemTtls } from './router/system-ttls.js';
import type { SealSetup } from './seal/index.js';
import type { LogSource, MetricsReport, ServerState } from './system-core.js';

// What a Core is built from, and the shapes it reports. Kept apart from core.ts so that file holds only the lifecycle.

/** An engine a new server mounts when it is initialised (`secret/`). */
export interface DefaultMount {
  path: string;
  input: MountInput;
}

/** Told when the barrier opens or closes: the worker processes of one server unseal and seal together. */
export interface SealWatcher {
  /** The barrier opened with `rootKey` (lent for the call only: copy it to keep it). */
  unsealed(rootKey: Uint8Array): void;
  /** The barrier closed. */
  sealed(): void;
}

export interface CoreDeps {
  /** Absent for a server of one process. */
  sealWatcher?: SealWatcher;
  physical: StorageBackend;
  /** Storage type reported by seal-status (`sqlite`, `inmem`). */
  storageType: string;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** Mount type → backend factory, from `catalog.ts`. */
  catalog: BackendCatalog;
  /** Engines mounted on a freshly initialised server unless `initialize` is given others (`catalog.ts`). */
  defaultMounts: DefaultMount[];
  /** Factories of the backends every namespace has (`sys/`, `auth/token/`, `identity/`), from `builtin-backends.ts`. */
  builtins: BuiltinBackends;
  /** Server version reported by status endpoints and mount listings. */
  version: string;
  /** Finds managed keys for the mounts that sign with them (from the composition root). */
  managedKeys?: ManagedKeyLookup;
  /** What `sys/metrics` reports; without it the endpoint answers that metrics are not collected. */
  metrics?: MetricsReport;
  /** What `sys/monitor` streams: the server logger's tap. */
  logSource?: LogSource;
  /** What `sys/host-info` and `sys/config/state/sanitized` report. */
  serverState?: ServerState;
  /** The configured seal (auto-unseal, migration); Shamir without it. Wrappers come from the composition root. */
  seal?: SealSetup;
  /** Several servers share the storage: an unsealed server is standby until it holds the HA lock. */
  ha?: HaOptions;
  /** `default_lease_ttl` and `max_lease_ttl` of the configuration; the established 768h each without. */
  systemTtls?: SystemTtls;
  /** `cluster_name` of the configuration: the name a newly initialised cluster takes (one is generated without). */
  clusterName?: string;
  /** `raw_storage_endpoint = true`: `sys/raw/*` is served (sudo only); 404 without. */
  rawStorageEndpoint?: boolean;
  /** `introspection_endpoint = true`: `sys/internal/inspect/router/:tag` is served (sudo only); 404 without. */
  introspectionEndpoint?: boolean;
}

export const NO_METRICS: MetricsReport = {
  render: async () => ({ status: 400, contentType: 'text/plain', body: 'metrics are not collected by this server' }),
};

/** The core's part of what `sys/seal-status` and `sys/unseal` return (the HTTP layer adds the build facts). */
export type SealStatus = CoreSealStatus;

export interface ClusterInfo {
  cluster_name: string;
  cluster_id: string;
}
