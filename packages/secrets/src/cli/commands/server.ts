import { createLogger, createLogTap, cryptoRandom, type FlagKind, type LogLevel, systemClock } from '@ward/base';
import type { ListenerAddress } from '../../http/listener.js';
import { startBanner } from '../../server/banner.js';
import { buildServer } from '../../server/build-server.js';
import { loadConfigFile, type ServerConfig } from '../../server/config.js';
import { type DevCredentials, initializeDev } from '../../server/dev-mode.js';
import { createDevTls, type DevTlsFiles } from '../../server/dev-tls.js';
import { openLogFile, removePidFile, writePidFile } from '../../server/process-files.js';
import { VERSION } from '../../server/version.js';
import { parseStorageBlock, StorageUnusableError } from '../../storage/index.js';
import { CliError } from '../command.js';
import { flagBool, flagValue, type ParsedArgs, UsageError } from '../flags.js';

/** The flags of `ward server`. */
export const SERVER_FLAGS = new Map<string, FlagKind>([
  ['config', 'string'],
  ['dev', 'bool'],
  ['dev-root-token-id', 'string'],
  ['dev-listen-address', 'string'],
  ['dev-tls', 'bool'],
  ['dev-tls-cert-dir', 'string'],
  // Hidden, as established: dev mode with KV version 1 at secret/.
  ['dev-kv-v1', 'bool'],
  ['log-level', 'log-level'],
  ['log-format', 'log-format'],
]);

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

Example:
  $ ward server -config=/etc/ward/ward.hcl
`;

/**
 * `ward server`: builds the server from a config file or dev flags, runs until
 * SIGINT/SIGTERM, then shuts down cleanly (requests in flight finish, keys leave memory).
 */
export async function runServer(args: ParsedArgs, env: NodeJS.ProcessEnv, out: NodeJS.WritableStream) {
  const devTls = flagBool(args, 'dev-tls');
  const dev = devTls || flagBool(args, 'dev');
  const configFile = flagValue(args, 'config');
  if (!dev && !configFile) throw new UsageError('either -dev or -config=FILE is required');

  let tls: DevTlsFiles | undefined;
  let config: ServerConfig;
  if (dev) {
    tls = devTls ? await createDevTls(systemClock.now(), flagValue(args, 'dev-tls-cert-dir')) : undefined;
    config = devConfig(flagValue(args, 'dev-listen-address') ?? env.VAULT_DEV_LISTEN_ADDRESS ?? '127.0.0.1:8200', tls);
  } else {
    config = await loadConfigFile(configFile as string);
  }
  const logLevel = (flagValue(args, 'log-level') ?? config.logLevel) as LogLevel;
  const logFormat = flagValue(args, 'log-format');
  const logSink = config.logFile ? openLogFile(config.logFile) : undefined;
  // `sys/monitor` taps the log here, at any level, without changing what the server itself writes.
  const logTap = createLogTap();
  const logger = createLogger({
    tap: logTap,
    level: logLevel,
    json: logFormat === undefined ? config.logJson : logFormat === 'json',
    sink: logSink,
  });
  // Before anything else is logged: what the file holds that Ward ignores, key by key.
  for (const warning of config.warnings ?? []) logger.warn(warning);
  const server = await buildServer({
    config,
    clock: systemClock,
    random: cryptoRandom,
    logger,
    logSource: logTap,
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
      const rootTokenId = flagValue(args, 'dev-root-token-id') ?? env.VAULT_DEV_ROOT_TOKEN_ID;
      creds = await initializeDev(server, rootTokenId, { kvVersion: flagBool(args, 'dev-kv-v1') ? '1' : '2' });
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

  await signalled;
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

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
