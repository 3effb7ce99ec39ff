import cluster from 'node:cluster';
import { createLogger, createLogTap, type FlagValues, flag, type Logger, type LogLevel, systemClock } from '@ward/base';
import { loadConfigFile, type ServerConfig } from '../../server/config.js';
import type { DevTlsFiles } from '../../server/dev-tls.js';
import { openLogFile, removePidFile, writePidFile } from '../../server/process-files.js';
import { WORKER_ID_ENV } from '../../server/worker-messages.js';
import { WorkerSupervisor } from '../../server/worker-supervisor.js';
import { sharedStorage, workerConfig, workersRefusal } from '../../server/workers.js';
import { parseWorkers } from '../../server/workers-setting.js';
import { openStorage, parseStorageBlock, StorageUnusableError } from '../../storage/index.js';
import { CliError } from '../command.js';
import { UsageError } from '../flags.js';
import { waitForSignal } from './server-signals.js';

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
  const isDev = devTls || flags.dev;
  const configFile = flags.config;
  if (!isDev && !configFile) throw new UsageError('either -dev or -config=FILE is required');

  let tls: DevTlsFiles | undefined;
  let config: ServerConfig;
  if (isDev) {
    tls = devTls
      ? await (await import('../../server/dev-tls.js')).createDevTls(systemClock.now(), flags['dev-tls-cert-dir'])
      : undefined;
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
  // Only a process that serves loads the server (the core, every engine and backend): the primary
  // of `workers = N` forks and watches, and stays small (docs/workers.md).
  const { serve } = await import('./server-serving.js');
  const dev = { rootTokenId: flags['dev-root-token-id'] ?? env.VAULT_DEV_ROOT_TOKEN_ID, kvV1: flags['dev-kv-v1'] };
  await serve({ out, dev: isDev ? dev : undefined, config, tls, logger, logTap, logSink, workerId });
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
