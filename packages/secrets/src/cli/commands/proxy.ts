import { rm, writeFile } from 'node:fs/promises';
import { createLogger, cryptoRandom, flag, type LogLevel, systemClock } from '@ward/base';
import type { ListenerAddress } from '../../http/listener.js';
import { LogicalError } from '../../logical/errors.js';
import { loadProxyConfig } from '../../proxy/config.js';
import { buildProxy } from '../../proxy/proxy.js';
import { CliError, defineProcessCommand } from '../command.js';
import { UsageError } from '../flags.js';

const PROXY_HELP = `Usage: ward proxy -config=FILE [options]

  Starts an API proxy in front of a server: it logs in on the application's behalf
  (auto_auth), keeps its token renewed, writes it to sinks, adds it to the requests it
  forwards (api_proxy), and caches answers that create tokens or leases (cache).

  -config=FILE               Configuration file (HCL or JSON). Required.
  -log-level=LEVEL           trace, debug, info, warn or error (default info).
  -log-format=FORMAT         standard (human-readable lines) or json (one JSON object per line);
                             overrides log_format in the file (default standard).

Example:
  $ ward proxy -config=/etc/ward/proxy.hcl
`;

const PROXY_FLAGS = {
  config: flag.string(),
  'log-level': flag.logLevel(),
  'log-format': flag.logFormat(),
};

/** `ward proxy`: runs until SIGINT/SIGTERM or `POST /proxy/v1/quit`, or exits after auth. */
export const proxyCommand = defineProcessCommand({
  name: 'proxy',
  summary: 'Start an API proxy with auto-auth, token sinks and a lease cache (ward proxy -config=FILE).',
  flags: PROXY_FLAGS,
  help: PROXY_HELP,
  async run({ flags, args }) {
    if (args.length > 0) throw new UsageError(`unexpected argument: ${args[0]}\n\n${PROXY_HELP}`);
    try {
      await runProxy(flags.config, flags['log-level'], flags['log-format']);
    } catch (err) {
      // A bad configuration or a failed start (a port in use) ends the process with status 1 and one
      // line, as for the server.
      if (err instanceof LogicalError) throw new CliError(err.message, 1);
      throw err;
    }
    return 0;
  },
});

async function runProxy(
  configFile: string | undefined,
  logLevelFlag: string | undefined,
  logFormatFlag: string | undefined,
): Promise<void> {
  if (!configFile) throw new UsageError('-config=FILE is required');
  const config = await loadProxyConfig(configFile);
  const json = logFormatFlag === undefined ? config.logJson : logFormatFlag === 'json';
  const logger = createLogger({ level: (logLevelFlag ?? config.logLevel) as LogLevel, json });
  const proxy = await buildProxy({ config, clock: systemClock, random: cryptoRandom, logger });
  if (config.pidFile) await writeFile(config.pidFile, `${process.pid}\n`);
  try {
    let addresses: ListenerAddress[];
    try {
      addresses = await proxy.start();
    } catch (err) {
      // Listeners that did bind, and auto-auth, would otherwise keep the process alive.
      await proxy.stop();
      throw err;
    }
    for (const a of addresses) logger.info('proxy listening', { url: a.url });
    if (config.exitAfterAuth && proxy.autoAuth) {
      await Promise.race([proxy.autoAuth.firstToken(), waitForSignal()]);
      logger.info('exit_after_auth: token written; exiting');
    } else {
      await Promise.race([waitForSignal(), proxy.quitRequested]);
      logger.info('shutting down');
    }
    await proxy.stop();
  } finally {
    if (config.pidFile) await rm(config.pidFile, { force: true });
  }
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
