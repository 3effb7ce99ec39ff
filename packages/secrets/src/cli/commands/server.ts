import cluster from 'node:cluster';
import { chmodSync } from 'node:fs';
import {
  createLogger,
  createLogTap,
  cryptoRandom,
  type FlagValues,
  flag,
  type Logger,
  type LogLevel,
  systemClock,
} from '@ward/base';
import type { ListenerAddress } from '../../http/listener.js';
import { startBanner } from '../../server/banner.js';
import { buildServer } from '../../server/build-server.js';
import { loadConfigFile, type ServerConfig } from '../../server/config.js';
import { type DevCredentials, initializeDev } from '../../server/dev-mode.js';
import { createDevTls, type DevTlsFiles } from '../../server/dev-tls.js';
import { openLogFile, removePidFile, writePidFile } from '../../server/process-files.js';
import { VERSION } from '../../server/version.js';
import { WORKER_ID_ENV } from '../../server/worker-messages.js';
import { WorkerMetricsGatherer } from '../../server/worker-metrics.js';
import { WorkerSealSync } from '../../server/worker-seal-sync.js';
import { WorkerSupervisor } from '../../server/worker-supervisor.js';
import { sharedStorage, workerConfig, workersRefusal } from '../../server/workers.js';
import { parseWorkers } from '../../server/workers-setting.js';
import { openStorage, parseStorageBlock, StorageUnusableError } from '../../storage/index.js';
import { CliError } from '../command.js';
import { UsageError } from '../flags.js';

/** The flags of `ward server`. */
export const SERVER_FLAGS = {
  config: flag.string(),
  dev: flag.bool(),
  'dev-root-token-id': flag.string(),
  'dev-listen-address': flag.string(),
  'dev-tls': flag.bool(),
  'dev-tls-cert-dir': flag.string(),
  // Hidden, as established: dev mode with KV version 1 at secret/.
  'dev-kv-v1': flag.bool(),
  'log-level': flag.logLevel(),
  'log-format': flag.logFormat(),
  workers: flag.string(),
};
type ServerFlags = FlagValues<typeof SERVER_FLAGS, string>;

export const SERVER_HELP = `Usage: ward server [options]

  Starts the secrets server.

  -config=FILE               Configuration file (HCL or JSON). Required unless -dev.
  -dev                       Dev mode: in memory, initialised, unsealed, KV v2 at secret/
                             (a configured server gets KV v1 there).
  -dev-root-token-id=ID      Root token text in dev mode (env VAULT_DEV_ROOT_TOKEN_ID).
  -dev-listen-address=ADDR   Dev listener (default 127.0.0.1:8200; env VAULT_DEV_LISTEN_ADDRESS).
  -dev-tls                   Dev mode over HTTPS with a generated CA (implies -dev).
  -dev-tls-cert-dir=DIR      Where -dev-tls writes its files (default: a new temp dir).
  -log-level=LEVEL           trace, debug, info, warn or error (default info).
  -log-format=FORMAT         standard (human-readable lines) or json (one JSON object per line);
                             overrides log_format in the file (default standard).
  -workers=N                 Server processes sharing the listeners and the SQLite store, 1 to 64
                             (overrides workers in the file; default 1). See docs/workers.md.

Example:
  $ ward server -config=/etc/ward/ward.hcl
`;

/**
 * `ward server`: builds the server from a config file or dev flags, runs until
 * SIGINT/SIGTERM, then shuts down cleanly (requests in flight finish, keys leave memory).
 */
export async function runServer(flags: ServerFlags, env: NodeJS.ProcessEnv, out: NodeJS.WritableStream) {
  try {
    await runServerProcess(flags, env, out);
  } finally {
    // A worker's IPC channel to its primary would keep it alive after it stopped (or failed to start).
    if (cluster.isWorker) process.disconnect?.();
  }
}

async function runServerProcess(flags: ServerFlags, env: NodeJS.ProcessEnv, out: NodeJS.WritableStream) {
  const devTls = flags['dev-tls'];
  const dev = devTls || flags.dev;
  const configFile = flags.config;
  if (!dev && !configFile) throw new UsageError('either -dev or -config=FILE is required');

  let tls: DevTlsFiles | undefined;
  let config: ServerConfig;
  if (dev) {
    tls = devTls ? await createDevTls(systemClock.now(), flags['dev-tls-cert-dir']) : undefined;
    config = devConfig(flags['dev-listen-address'] ?? env.VAULT_DEV_LISTEN_ADDRESS ?? '127.0.0.1:8200', tls);
  } else {
    config = await loadConfigFile(configFile as string);
  }
  const workers = parseWorkers(flags.workers, '-workers') ?? config.workers ?? 1;
  const refusal = workersRefusal(config, workers);
  if (refusal) throw new CliError(refusal, 1);
  const workerId = workers > 1 && cluster.isWorker ? Number(env[WORKER_ID_ENV]) : undefined;
  if (workerId !== undefined) config = { ...workerConfig(config, workerId), pidFile: undefined };
  const logLevel = (flags['log-level'] ?? config.logLevel) as LogLevel;
  const logFormat = flags['log-format'];
  const logSink = config.logFile ? openLogFile(config.logFile) : undefined;
  // `sys/monitor` taps the log here, at any level, without changing what the server itself writes.
  const logTap = createLogTap();
  const rootLogger = createLogger({
    tap: logTap,
    level: logLevel,
    json: logFormat === undefined ? config.logJson : logFormat === 'json',
    sink: logSink,
  });
  const logger = workerId === undefined ? rootLogger : rootLogger.child({ worker: workerId });
  // Before anything else is logged: what the file holds that Ward ignores, key by key (once, by the primary).
  if (workerId === undefined) for (const warning of config.warnings ?? []) logger.warn(warning);
  if (workers > 1 && cluster.isPrimary) {
    await runPrimary(workers, config, logger);
    await logSink?.close();
    return;
  }
  const sealSync = workerId === undefined ? undefined : new WorkerSealSync(ipcToPrimary(), { logger });
  const server = await buildServer({
    config,
    clock: systemClock,
    random: cryptoRandom,
    logger,
    logSource: logTap,
    workerId,
    sealWatcher: sealSync?.watcher,
    metricsGatherer: workerId === undefined ? undefined : new WorkerMetricsGatherer(ipcToPrimary()),
  }).catch((err) => {
    // A damaged store: the message names the file and the fix; a stack trace would only hide it.
    throw err instanceof StorageUnusableError ? new CliError(err.message, 1) : err;
  });
  if (config.pidFile) writePidFile(config.pidFile, process.pid);
  // Listen for signals before anything is printed: whoever reads the banner may signal at once,
  // and a signal before the handler exists would kill the process without a clean shutdown.
  const signalled = waitForSignal();
  // Dev mode initialises before the listener opens: a client that sees sys/health answer must find
  // the root token and the default mounts in place (scripts poll health and use the token at once).
  let creds: DevCredentials | undefined;
  let addresses: ListenerAddress[];
  try {
    if (dev) {
      const rootTokenId = flags['dev-root-token-id'] ?? env.VAULT_DEV_ROOT_TOKEN_ID;
      creds = await initializeDev(server, rootTokenId, { kvVersion: flags['dev-kv-v1'] ? '1' : '2' });
    }
    addresses = await server.start();
  } catch (err) {
    // Without this a listener that did open would keep a failed server running after it reported the error.
    await server.stop();
    await tls?.remove();
    if (config.pidFile) await removePidFile(config.pidFile);
    await logSink?.close();
    throw err;
  }
  if (creds) out.write(devBanner(addresses[0]?.url ?? '', creds, tls));
  const { core } = server;
  out.write(
    startBanner({
      version: VERSION,
      config,
      addresses,
      isInitialized: await core.isInitialized(),
      isSealed: core.isSealed(),
      sealType: core.sealKeys.type,
      isMigrationPending: (await core.sealStatus()).migration,
    }),
  );
  for (const a of addresses) logger.info('listening', { url: a.url });
  // A worker's own API socket: its directory is the owner's alone already; the socket is too.
  for (const a of addresses)
    if (workerId !== undefined && a.url.startsWith('unix://')) chmodSync(a.url.slice(7), 0o600);
  sealSync?.attach(core);

  await signalled;
  sealSync?.shuttingDown();
  logger.info('shutting down');
  await server.stop();
  await tls?.remove();
  if (config.pidFile) await removePidFile(config.pidFile);
  await logSink?.close();
}

function devConfig(address: string, tls: DevTlsFiles | undefined): ServerConfig {
  return {
    storage: parseStorageBlock('inmem', {}),
    listeners: [{ address, tlsDisable: !tls, tlsCertFile: tls?.certFile, tlsKeyFile: tls?.keyFile, maxRequestSize: 0 }],
    logLevel: 'info',
    logJson: false,
    kmsLibraries: new Map(),
    // As the established dev server: the web UI on.
    ui: true,
    // As the established dev server: Prometheus metrics kept for 24 h, no hostname in metric names.
    telemetry: { disableHostname: true, prometheusRetentionSeconds: DEV_PROMETHEUS_RETENTION_SECONDS },
  };
}

/** Dev mode's `prometheus_retention_time`: 24 h, as established. */
const DEV_PROMETHEUS_RETENTION_SECONDS = 24 * 3600;

function devBanner(url: string, creds: DevCredentials, tls?: DevTlsFiles): string {
  return [
    'WARNING! dev mode is enabled! In this mode, the server runs entirely in memory',
    'and starts unsealed with a single unseal key. Never use it in production.',
    '',
    'You may need to set the following environment variables:',
    '',
    `    $ export VAULT_ADDR='${url}'`,
    ...(tls ? [`    $ export VAULT_CACERT='${tls.caFile}'`] : []),
    '',
    `Unseal Key: ${creds.unsealKey}`,
    `Root Token: ${creds.rootToken}`,
    '',
    '',
  ].join('\n');
}

/** The primary of `workers = N`: forks and watches the workers until SIGINT/SIGTERM, then stops them. */
async function runPrimary(workers: number, config: ServerConfig, logger: Logger): Promise<void> {
  // Opened (made, checked, its shared tables created) once here, so the workers never race to
  // create the file, and a damaged store stops the server at start with one line.
  const opened = await openStorage(sharedStorage(config)).catch((err) => {
    throw err instanceof StorageUnusableError ? new CliError(err.message, 1) : err;
  });
  await opened.backend.close();
  const signalled = waitForSignal();
  if (config.pidFile) writePidFile(config.pidFile, process.pid);
  const supervisor = new WorkerSupervisor(workers, { logger });
  supervisor.start();
  const failed = await Promise.race([signalled.then(() => false), supervisor.failedToStart.then(() => true)]);
  logger.info('shutting down the worker processes');
  await supervisor.stop();
  if (config.pidFile) await removePidFile(config.pidFile);
  if (failed) throw new CliError('a worker process could not start (its error is above)', 1);
}

/** A cluster worker's IPC channel to its primary. */
function ipcToPrimary() {
  return {
    send: (message: object) => process.send?.(message),
    onMessage: (handler: (message: unknown) => void) => process.on('message', handler),
  };
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
