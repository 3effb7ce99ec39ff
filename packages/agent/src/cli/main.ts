import { cryptoRandom, systemClock } from '@ward/base';
import { Agent } from '../agent.js';
import { VERSION } from '../config/config.js';
import { ConfigError } from '../config/errors.js';
import { loadConfig } from '../config/load.js';
import { LogHub } from '../monitor/log-hub.js';

const USAGE = `Usage: ward-agent <command> [flags]

Commands:
  agent     Run a cluster agent (see packages/agent/README.md for its flags)
  version   Print the version
`;

/** Runs the CLI; the only place that decides exit codes. Resolves when the agent has stopped. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'version' || command === '-version' || command === '--version') {
    process.stdout.write(`Ward agent v${VERSION}\n`);
    return 0;
  }
  if (command !== 'agent') {
    process.stderr.write(USAGE);
    return command === undefined || command === '-h' || command === '--help' ? 0 : 1;
  }
  return runAgent(rest);
}

async function runAgent(args: string[]): Promise<number> {
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig(args);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`==> Error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const hub = new LogHub();
  hub.subscribe({ level: config.logLevel, json: config.logJson, sink: process.stderr });
  let agent: Agent;
  try {
    agent = await Agent.start(config, {
      clock: systemClock,
      random: cryptoRandom,
      hub,
      argv: process.argv,
      env: process.env,
    });
  } catch (err) {
    process.stderr.write(`==> Error starting agent: ${(err as Error).message}\n`);
    return 1;
  }
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      agent.log.info('agent: caught signal, leaving gracefully', { signal });
      agent.stop(true).then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
