/** The `ward-agent` command line: the agent itself and the scheduler CLI's everyday commands. @module */
import { cryptoRandom, parseGoFlags, systemClock, USAGE_EXIT_CODE, UsageError, usageErrorText } from '@ward/base';
import { Agent } from '../agent.js';
import { agentHelp } from '../config/agent-help.js';
import { VERSION } from '../config/config.js';
import { ConfigError } from '../config/errors.js';
import { isAgentHelp } from '../config/flags.js';
import { loadConfig } from '../config/load.js';
import { warmUpHcl } from '../hcl/warm-up.js';
import { LogHub } from '../monitor/log-hub.js';
import { NET_NETWORK } from '../net-network.js';
import { ApiError } from './api.js';
import type { AgentIo, Command } from './command.js';
import { COMMAND_LIST, COMMANDS } from './command-table.js';

const NO_FLAGS = new Map<string, never>();

function usageText(): string {
  const rows: Array<[string, string]> = [
    ['agent', 'Run a cluster agent (ward-agent agent -help lists its flags)'],
    ...COMMAND_LIST.map((c): [string, string] => [c.name, c.summary]),
    ['version', 'Print the version'],
  ];
  const width = Math.max(...rows.map(([n]) => n.length));
  return `Usage: ward-agent <command> [flags]

Commands:
${rows.map(([n, s]) => `  ${n.padEnd(width)}  ${s}`).join('\n')}

Every command takes -help. Commands other than agent talk to an agent's HTTP API:
-address (or WARD_AGENT_ADDR, NOMAD_ADDR) and -token (or WARD_AGENT_TOKEN, NOMAD_TOKEN).
`;
}

/** Runs the CLI; the only place that decides exit codes. Resolves when the agent has stopped. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'version' || command === '-version' || command === '--version') {
    process.stdout.write(`Ward agent v${VERSION}\n`);
    return 0;
  }
  if (command === undefined) {
    process.stderr.write(usageErrorText('no command given', usageText()));
    return USAGE_EXIT_CODE;
  }
  try {
    // Before the command only -help is a flag.
    if (parseGoFlags([command], NO_FLAGS, 'go').isHelp) {
      process.stdout.write(usageText());
      return 0;
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(usageErrorText(err.message, usageText()));
    return err.exitCode;
  }
  if (command === 'agent') return runAgent(rest);
  const found = COMMANDS.find(argv);
  if (found) return runCommand(await found.load(), argv.slice(found.words));
  const words = argv.filter((a) => !a.startsWith('-'));
  const under = COMMANDS.underLongestGroup(words);
  const hint = under.length > 0 ? under.map((name) => `  ward-agent ${name}`).join('\n') : usageText();
  process.stderr.write(usageErrorText(`unknown command "${words.join(' ')}"`, hint));
  return USAGE_EXIT_CODE;
}

/**
 * Runs one API command: `-help` prints its help (exit 0), a usage error prints the message and
 * the help to stderr (exit 2), an API failure prints `Error running …: …` (exit 1).
 */
async function runCommand(command: Command, argv: string[]): Promise<number> {
  const io: AgentIo = { env: process.env, out: process.stdout, err: process.stderr };
  try {
    return await command.execute(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(usageErrorText(err.message, command.help()));
      return err.exitCode;
    }
    if (err instanceof ApiError) {
      process.stderr.write(`Error running ${command.name}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

/** After a bad `agent` command line: the usage line and where the flags are (not all of them). */
const AGENT_USAGE_HINT = 'Usage: ward-agent agent [options]\n\nRun "ward-agent agent -help" for every flag.\n';

async function runAgent(args: string[]): Promise<number> {
  let config: Omit<Awaited<ReturnType<typeof loadConfig>>, 'warnings'>;
  let warnings: string[];
  try {
    if (isAgentHelp(args)) {
      process.stdout.write(agentHelp());
      return 0;
    }
    ({ warnings, ...config } = await loadConfig(args));
  } catch (err) {
    // A command line the agent cannot take is a usage error (2); a bad value in a file is not.
    if (err instanceof UsageError) {
      process.stderr.write(usageErrorText(err.message, AGENT_USAGE_HINT));
      return err.exitCode;
    }
    if (err instanceof ConfigError) {
      // One problem a line (a config file's unknown keys are all listed at once).
      process.stderr.write(`==> Error:${err.message.includes('\n') ? '\n' : ' '}${err.message}\n`);
      return 1;
    }
    throw err;
  }
  for (const w of warnings) process.stderr.write(`==> Warning: ${w}\n`);
  const hub = new LogHub();
  hub.subscribe({ level: config.logLevel, json: config.logJson, sink: process.stderr });
  let agent: Agent;
  try {
    await warmUpHcl(config);
    // The process's composition root: real clock, randomness and sockets.
    agent = await Agent.start(
      config,
      { clock: systemClock, random: cryptoRandom, hub, argv: process.argv, env: process.env },
      NET_NETWORK,
    );
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
