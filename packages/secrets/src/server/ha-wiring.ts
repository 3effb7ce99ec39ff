import { hostname } from 'node:os';
import type { Clock, Logger, Random } from '@ward/base';
import type { Core } from '../core/core.js';
import { type HaNodeInfo, type HaOptions, readClusterTls } from '../core/ha/index.js';
import { Scheduler, type TaskGroup } from '../core/scheduler/index.js';
import { ClusterForwarder } from '../http/cluster-forwarder.js';
import { ClusterListener, forwardedClientAddress } from '../http/cluster-listener.js';
import { createApiHandler, type RequestMetrics } from '../http/handler.js';
import { MAX_JSON_DEPTH_SETTING } from '../http/json-body.js';
import type { ListenerAddress } from '../http/listener.js';
import type { ServerInfo } from '../http/sys-raw.js';
import type { StorageHa } from '../storage/index.js';
import type { ServerConfig } from './config.js';

/** How often a standby echoes to the active server (`sys/ha-status` shows when it last did), on the injected clock. */
export const ECHO_INTERVAL_MS = 2_000;

/**
 * The forwarded request was checked against the limits of the listener the client reached; the
 * cluster channel applies none of its own (only the cluster's members can reach it).
 */
const UNLIMITED_JSON = {
  maxDepth: MAX_JSON_DEPTH_SETTING,
  maxStringValueLength: Number.MAX_SAFE_INTEGER,
  maxObjectEntryCount: Number.MAX_SAFE_INTEGER,
  maxArrayElementCount: Number.MAX_SAFE_INTEGER,
};

/** Everything HA adds to a server: the lock, the cluster listener (when `cluster_addr` is set), forwarding, echoes. */
export interface HaWiring {
  options: HaOptions;
  /** Given to every API listener: a standby forwards through it. Absent without `cluster_addr`. */
  forwarder?: ClusterForwarder;
  /**
   * Binds the cluster listener and starts echoing; after the API listeners are bound. No campaign
   * takes the lock before (`HaOptions.addressesKnown`).
   */
  start(core: Core, deps: { info: ServerInfo; logger: Logger; random: Random; metrics: RequestMetrics }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * HA on a shared storage (its lock and change feed): the active server advertises `api_addr`
 * (the first listener's address when not set) and `cluster_addr` (with the bound port when it names port 0).
 */
export function haWiring(
  storage: StorageHa,
  config: ServerConfig,
  deps: { clock: Clock; logger: Logger; bound: () => readonly ListenerAddress[]; core: () => Core },
): HaWiring {
  // A listener's cluster_address is where the cluster listener binds; cluster_addr what it advertises
  // (the bind address, when only that is given).
  const bindAddress = config.listeners.find((l) => l.clusterAddress)?.clusterAddress;
  const clusterAddr = config.clusterAddr ?? (bindAddress ? `https://${bindAddress}` : undefined);
  const cluster = clusterAddr
    ? new ClusterListener({
        clusterAddr,
        bindAddress,
        core: {
          isActive: () => !deps.core().isSealed() && !deps.core().isStandby(),
          recordEcho: (node) => deps.core().ha.nodes.record(node, deps.clock.now()),
        },
        apiHandler: (req, res) => apiHandler(req, res),
      })
    : undefined;
  let apiHandler: ReturnType<typeof createApiHandler> = (_req, res) => res.destroy();
  let addressesAreKnown: () => void = () => {};
  const options: HaOptions = {
    newLock: (value) => storage.newLock(value),
    advertise: () => ({ apiAddr: config.apiAddr ?? deps.bound()[0]?.url ?? '', clusterAddr: cluster?.url ?? '' }),
    addressesKnown: new Promise((resolve) => {
      addressesAreKnown = resolve;
    }),
    onActive: (tls) => cluster?.useTls(tls),
    feed: storage.feed,
    isPerformanceStandby: config.disablePerformanceStandby !== true,
  };
  const forwarder = cluster
    ? new ClusterForwarder({
        core: { haStatus: () => deps.core().haStatus(), clusterTls: () => clusterTlsOf(deps.core()) },
        clock: deps.clock,
        logger: deps.logger,
      })
    : undefined;
  // Echoes run on standbys too (not only on the active server, as the core's periodic work does).
  const scheduler = new Scheduler({ clock: deps.clock, logger: deps.logger });
  let echoes: TaskGroup | undefined;
  return {
    options,
    forwarder,
    async start(core, handlerDeps) {
      if (!cluster || !forwarder) return addressesAreKnown();
      apiHandler = createApiHandler({
        ...handlerDeps,
        core,
        maxRequestSize: -1,
        jsonLimits: UNLIMITED_JSON,
        remoteAddress: forwardedClientAddress,
      });
      await cluster.listen();
      addressesAreKnown();
      const self = (): HaNodeInfo => ({ ...options.advertise(), hostname: hostname(), version: core.version });
      const echo = async () => {
        if (core.isStandby()) return forwarder.echo(self());
        if (core.isSealed()) return;
        // A snapshot restored from another cluster brings that cluster's certificate: the active server follows it.
        const tls = await clusterTlsOf(core);
        if (tls) cluster.useTls(tls);
      };
      // Not awaited: an echo to an active server that stopped answering holds up neither the next one nor stop().
      const run = async () => {
        echo().catch((err: Error) => deps.logger.debug('HA: echo failed', { error: err.message }));
      };
      echoes = scheduler.start('ha', [{ name: 'echo', intervalMs: ECHO_INTERVAL_MS, run }]);
    },
    async stop() {
      await echoes?.stop();
      forwarder?.close();
      await cluster?.close();
    },
  };
}

/** The cluster's mutual-TLS material, readable by any unsealed server (active or standby) once one has been active. */
function clusterTlsOf(core: Core) {
  return core.barrier.isSealed() ? Promise.resolve(undefined) : readClusterTls(core.barrier);
}
