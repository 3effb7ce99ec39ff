import type { IncomingMessage } from 'node:http';
import type { Clock, Logger, Random } from '@ward/base';
import { builtinNamespaceBackends } from '../builtin-backends.js';
import { BUILTIN_BACKENDS, DEFAULT_MOUNTS } from '../catalog.js';
import { Core } from '../core/core.js';
import type { SealWatcher } from '../core/core-types.js';
import type { BuiltinBackends } from '../core/namespaces/builtin-mounts.js';
import type { BackendCatalog } from '../core/router/mounts.js';
import type { LogSource } from '../core/system-core.js';
import { type ClusterForwarder, WORKER_HEADER } from '../http/cluster-forwarder.js';
import { forwardedClient } from '../http/forwarded-for.js';
import { createApiHandler } from '../http/handler.js';
import { createListener, type Listener, type ListenerAddress } from '../http/listener.js';
import { sendJson } from '../http/respond.js';
import type { ServerInfo } from '../http/sys-raw.js';
import { loadUiAssets, serveUi, type UiAssets } from '../http/ui-assets.js';
import { openStorage } from '../storage/index.js';
import { Pkcs11Modules } from '../sys/kms/index.js';
import { ManagedKeyDirectory } from '../sys/managed-keys/directory.js';
import { AutoUnsealer } from './auto-unseal.js';
import { type ListenerConfig, readListenerTls, type ServerConfig } from './config.js';
import { haWiring } from './ha-wiring.js';
import { hostInfo } from './host-info.js';
import { createServerMetrics, type MetricsGatherer, type ServerMetrics } from './metrics.js';
import { sanitizedConfig } from './sanitized-config.js';
import { createSealSetup } from './seal-wiring.js';
import { uiDistDirectory } from './ui-dist.js';
import { BUILD_DATE, VERSION } from './version.js';

export interface ServerDeps {
  config: ServerConfig;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** What `sys/monitor` streams: the tap of `logger` (none: the endpoint answers 400). */
  logSource?: LogSource;
  /** Mountable backends by type; the built-in catalog unless a test adds its own engines. */
  catalog?: BackendCatalog;
  /** `workers` > 1: this process's number (1…N), named in every response's `X-Ward-Worker` header. */
  workerId?: number;
  /** `workers` > 1: gathers the other worker processes' metrics, so one scrape shows them all. */
  metricsGatherer?: MetricsGatherer;
  /** `workers` > 1: tells the other worker processes when this one unseals or seals. */
  sealWatcher?: SealWatcher;
  /** Lets a test wrap the backends every namespace has (give one a periodic task, say). */
  wrapBuiltins?: (builtins: BuiltinBackends) => BuiltinBackends;
  /** Where the built web UI is (`ui = true`); default packages/ui/dist. */
  uiDirectory?: string;
}

/** A built server: the core and its listeners, not yet listening. */
export interface WardServer {
  core: Core;
  /** Binds every listener; returns where each one listens. */
  start(): Promise<ListenerAddress[]>;
  /** Stops listening (letting requests in flight finish), seals, and closes storage. */
  stop(): Promise<void>;
}

/** The composition root of the secrets server: storage → core → HTTP. */
export async function buildServer(deps: ServerDeps): Promise<WardServer> {
  const { config, clock, random, logger } = deps;
  const metrics = createServerMetrics(
    config.telemetry ?? { disableHostname: false, prometheusRetentionSeconds: 0 },
    deps.workerId === undefined || !deps.metricsGatherer
      ? undefined
      : { id: deps.workerId, gatherer: deps.metricsGatherer },
  );
  const storage = await openStorage(config.storage);
  const physical = metrics.timeStorage(storage.backend);
  let bound: ListenerAddress[] = [];
  const ha = storage.ha
    ? haWiring(storage.ha, config, {
        clock,
        logger: logger.child({ component: 'ha' }),
        bound: () => bound,
        core: () => core,
      })
    : undefined;
  // One per process: a PKCS#11 library is initialised once, for the managed keys and the seal alike.
  const pkcs11 = new Pkcs11Modules();
  const hasClusterAddress = config.clusterAddr !== undefined || config.listeners.some((l) => l.clusterAddress);
  if (!storage.ha && hasClusterAddress) {
    logger.warn(
      `cluster_addr and cluster_address have no effect: storage "${config.storage.type}" is not shared by several servers (no HA, no cluster listener)`,
    );
  }
  const managedKeys = new ManagedKeyDirectory({ libraries: config.kmsLibraries, pkcs11 });
  const seal = createSealSetup(config.seals, { pkcs11, random, logger: logger.child({ component: 'seal' }) });
  const core = new Core({
    physical,
    storageType: config.storage.type,
    clock,
    random,
    logger: logger.child({ component: 'core' }),
    catalog: deps.catalog ?? BUILTIN_BACKENDS,
    defaultMounts: DEFAULT_MOUNTS,
    builtins: (deps.wrapBuiltins ?? ((b) => b))(
      builtinNamespaceBackends(managedKeys, () => (config.apiAddr ?? bound[0]?.url ?? '').replace(/\/+$/, '')),
    ),
    managedKeys: (namespaceId, ref) => managedKeys.find(namespaceId, ref),
    version: VERSION,
    metrics,
    logSource: deps.logSource,
    serverState: { hostInfo: () => hostInfo(clock.now()), sanitizedConfig: () => sanitizedConfig(config) },
    ha: ha?.options,
    sealWatcher: deps.sealWatcher,
    seal,
    systemTtls: config.systemTtls,
    clusterName: config.clusterName,
    rawStorageEndpoint: config.rawStorageEndpoint,
    introspectionEndpoint: config.introspectionEndpoint,
  });
  const autoUnsealer = new AutoUnsealer(core, { clock, logger: logger.child({ component: 'seal' }) });
  metrics.watchCore({
    isSealed: () => core.isSealed(),
    // A standby tracks no lease (the active server expires them): without this, sys/metrics answered 503 there.
    leaseCount: () => (core.isStandby() ? { total: 0, irrevocable: 0 } : core.expiration.count()),
  });
  const ui = config.ui ? await loadUiAssets(deps.uiDirectory ?? uiDistDirectory()) : undefined;
  if (config.ui && !ui) logger.warn('ui = true, but the web UI is not built (run npm run build): /ui/ answers 404');
  const listeners: Listener[] = [];
  for (const l of config.listeners) listeners.push(await buildListener(l, core, metrics, deps, ha?.forwarder, ui));
  return {
    core,
    start: async () => {
      // Auto-unseal before the listeners open: a client that reaches the server finds it unsealed.
      await autoUnsealer.start();
      bound = await Promise.all(listeners.map((l) => l.listen()));
      await ha?.start(core, {
        info: serverInfo(deps),
        logger: logger.child({ component: 'cluster' }),
        random,
        metrics,
      });
      return bound;
    },
    async stop() {
      const closed = await Promise.all(listeners.map((l) => l.close()));
      await ha?.stop();
      const forcedClosed = closed.reduce((n, c) => n + c.forcedClosed, 0);
      if (forcedClosed > 0)
        logger.warn('connections still open after the shutdown grace period were closed', { forcedClosed });
      autoUnsealer.stop();
      await core.seal();
      await core.sealKeys.close();
      await physical.close();
    },
  };
}

async function buildListener(
  l: ListenerConfig,
  core: Core,
  metrics: ServerMetrics,
  deps: ServerDeps,
  forwarder: ClusterForwarder | undefined,
  ui: UiAssets | undefined,
): Promise<Listener> {
  const tls = await readListenerTls(l);
  const listener = createListener({
    address: l.address,
    socketPath: l.socketPath,
    tls,
    maxRequestSize: l.maxRequestSize,
    requestTimeoutMs: l.maxRequestDurationMs,
    keepAliveTimeoutMs: l.idleTimeoutMs,
    proxyProtocol: l.proxyProtocol,
    handler: (req, res) => {
      if (workerHeader) res.setHeader(WORKER_HEADER, workerHeader);
      if (ui && serveUi(ui, req, res)) return;
      if (!forwardedFor) return handler(req, res);
      const client = forwardedClient(req, forwardedFor, listener.clientAddress(req));
      if ('error' in client) return sendJson(res, 400, { errors: [client.error] }, req);
      clientAddresses.set(req, client.address);
      if (client.certificate) clientCertificates.set(req, client.certificate);
      handler(req, res);
    },
  });
  const { forwardedFor } = l;
  const workerHeader = deps.workerId === undefined ? undefined : String(deps.workerId);
  const clientAddresses = new WeakMap<IncomingMessage, string>();
  const clientCertificates = new WeakMap<IncomingMessage, Uint8Array>();
  const handler = createApiHandler({
    core,
    info: serverInfo(deps),
    logger: deps.logger.child({ component: 'http' }),
    random: deps.random,
    maxRequestSize: listener.maxRequestSize,
    jsonLimits: l.jsonLimits,
    requireRequestHeader: l.requireRequestHeader,
    metrics,
    unauthenticatedMetricsAccess: l.unauthenticatedMetricsAccess === true,
    logRequests: deps.config.logRequests === true,
    forwarder,
    remoteAddress: (req) => clientAddresses.get(req) ?? listener.clientAddress(req),
    forwardedClientCertificate: (req) => clientCertificates.get(req),
  });
  return listener;
}

function serverInfo(deps: ServerDeps): ServerInfo {
  return { version: VERSION, buildDate: BUILD_DATE, storageType: deps.config.storage.type };
}
