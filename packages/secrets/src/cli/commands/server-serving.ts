import { chmodSync } from 'node:fs';
import { cryptoRandom, type Logger, type LogTap, systemClock } from '@ward/base';
import type { ListenerAddress } from '../../http/listener.js';
import { startBanner } from '../../server/banner.js';
import { buildServer } from '../../server/build-server.js';
import type { ServerConfig } from '../../server/config.js';
import { type DevCredentials, initializeDev } from '../../server/dev-mode.js';
import type { DevTlsFiles } from '../../server/dev-tls.js';
import { type FileLogSink, removePidFile, writePidFile } from '../../server/process-files.js';
import { VERSION } from '../../server/version.js';
import { WorkerMetricsGatherer } from '../../server/worker-metrics.js';
import { WorkerSealSync } from '../../server/worker-seal-sync.js';
import { StorageUnusableError } from '../../storage/index.js';
import { CliError } from '../command.js';
import { waitForSignal } from './server-signals.js';

/** What `ward server` decided before it serves: the configuration, the logger and the dev mode's files. */
export interface ServeOptions {
  out: NodeJS.WritableStream;
  /** Dev mode: the root token's text (generated when absent) and KV version 1 at secret/. */
  dev: { rootTokenId: string | undefined; kvV1: boolean | undefined } | undefined;
  config: ServerConfig;
  tls: DevTlsFiles | undefined;
  logger: Logger;
  logTap: LogTap;
  logSink: FileLogSink | undefined;
  /** This process is worker `workerId` of `workers = N`; `undefined` when it is the only process. */
  workerId: number | undefined;
}

/**
 * A process that serves: the only one, or a worker of `workers = N`. Builds the server, opens its
 * listeners, runs until SIGINT/SIGTERM, then shuts down cleanly. Imported only by such a process
 * (the primary of `workers = N` never loads the server).
 */
export async function serve(o: ServeOptions): Promise<void> {
  const { out, dev, config, tls, logger, logSink, workerId } = o;
  const logTap = o.logTap;
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
      creds = await initializeDev(server, dev.rootTokenId, { kvVersion: dev.kvV1 ? '1' : '2' });
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

/** A cluster worker's IPC channel to its primary. */
function ipcToPrimary() {
  return {
    send: (message: object) => process.send?.(message),
    onMessage: (handler: (message: unknown) => void) => process.on('message', handler),
  };
}
