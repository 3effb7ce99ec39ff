/** `ward proxy`: auto-auth, token sinks, forwarding and the lease cache. @module */
import { readFile, rm } from 'node:fs/promises';
import type { Clock, Logger, Random } from '@ward/base';
import { createClient } from '@ward/secrets-client';
import { createListener, type Listener, type ListenerAddress } from '../http/listener.js';
import { readListenerTls } from '../server/config.js';
import { createAuthMethod } from './auth-method.js';
import { AutoAuth } from './auto-auth.js';
import type { ProxyConfig, ProxyListenerConfig } from './config.js';
import { createFileSink } from './file-sink.js';
import { LeaseCache } from './lease-cache.js';
import { createProxyHandler } from './proxy-handler.js';
import { createUpstream, type Upstream } from './upstream.js';

export interface ProxyDeps {
  config: ProxyConfig;
  clock: Clock;
  random: Random;
  logger: Logger;
}

/** A built proxy: auto-auth, cache and listeners, not yet started. */
export interface WardProxy {
  /** Undefined without an `auto_auth` block. */
  autoAuth?: AutoAuth;
  /** Starts auto-auth and binds every listener; returns where each one listens. */
  start(): Promise<ListenerAddress[]>;
  /** Resolves when `POST /proxy/v1/quit` asks the proxy to stop. */
  readonly quitRequested: Promise<void>;
  /** Stops auto-auth timers, lets requests in flight finish, closes the listeners and connections. */
  stop(): Promise<void>;
}

/** The composition root of `ward proxy`: upstream → auto-auth → cache → listeners. */
export async function buildProxy(deps: ProxyDeps): Promise<WardProxy> {
  const { config, clock, random, logger } = deps;
  const caCert = config.upstream.caCert === undefined ? undefined : await readFile(config.upstream.caCert, 'utf8');
  const tls = { caCert, skipVerify: config.upstream.tlsSkipVerify };
  const upstream = createUpstream({ address: config.upstream.address, caCert, tlsSkipVerify: tls.skipVerify });
  const client = createClient({ address: config.upstream.address, ...tls });
  const autoAuth =
    config.autoAuth &&
    new AutoAuth({
      client,
      method: createAuthMethod(config.autoAuth.method),
      sinks: config.autoAuth.sinks.map(createFileSink),
      clock,
      random,
      logger: logger.child({ component: 'auto-auth' }),
    });
  const cache = config.isCacheEnabled
    ? new LeaseCache(clock, logger.child({ component: 'cache' }), (token) => token === autoAuth?.token)
    : undefined;
  let requestQuit!: () => void;
  const quitRequested = new Promise<void>((resolve) => {
    requestQuit = resolve;
  });
  const listeners = await Promise.all(
    config.listeners.map((l) => buildListener(l, { upstream, autoAuth, cache, config, logger, onQuit: requestQuit })),
  );
  return {
    autoAuth,
    quitRequested,
    async start() {
      autoAuth?.start();
      for (const l of config.listeners) if (l.type === 'unix') await rm(l.address, { force: true });
      return Promise.all(listeners.map((l) => l.listen()));
    },
    async stop() {
      autoAuth?.stop();
      await Promise.all(listeners.map((l) => l.close()));
      cache?.close();
      await upstream.close();
      await client.close();
    },
  };
}

interface ListenerParts {
  upstream: Upstream;
  autoAuth?: AutoAuth;
  cache?: LeaseCache;
  config: ProxyConfig;
  logger: Logger;
  onQuit(): void;
}

async function buildListener(l: ProxyListenerConfig, parts: ListenerParts): Promise<Listener> {
  const tls = await readListenerTls(l);
  const listener = createListener({
    address: l.address,
    socketPath: l.type === 'unix' ? l.address : undefined,
    tls,
    maxRequestSize: l.maxRequestSize,
    handler: (req, res) => handler(req, res),
  });
  const handler = createProxyHandler({
    upstream: parts.upstream,
    autoAuth: parts.autoAuth,
    useAutoAuthToken: parts.config.useAutoAuthToken,
    cache: parts.cache,
    requireRequestHeader: l.requireRequestHeader === true,
    maxRequestSize: listener.maxRequestSize,
    isQuitEnabled: l.isQuitEnabled,
    onQuit: parts.onQuit,
    logger: parts.logger.child({ component: 'proxy' }),
  });
  return listener;
}
