/** The `ward-platform` command line: serve, admin create, version. @module */
import { CliError, cryptoRandom, parseGoFlags, systemClock, UsageError, usageErrorText } from '@ward/base';
import type { PlatformIo } from './command.js';
import { COMMAND_LIST, COMMANDS } from './command-table.js';

/** This build's version, as `ward version` and `ward-agent version` print theirs. */
const VERSION = '0.1.0';

/** The top-level usage, listed from the command table so a new command cannot be left out. */
function usage(): string {
  const rows = [...COMMAND_LIST.map((c) => [c.name, c.summary]), ['version', 'print the version (also -version)']];
  const width = Math.max(...rows.map(([name = '']) => name.length));
  return `Usage: ward-platform <command> [options]

Commands:
${rows.map(([name = '', summary]) => `  ${name.padEnd(width)}   ${summary}`).join('\n')}

Run "ward-platform <command> -help" for a command's options and an example.
`;
}

/**
 * Entry point of `bin/ward-platform`, and the only place that ends the process: errors become
 * an exit code here (2 for a usage error), and `serve` runs until SIGINT or SIGTERM.
 */
export async function run(argv: string[]): Promise<void> {
  const io: PlatformIo = { env: process.env, stdout: process.stdout, clock: systemClock, random: cryptoRandom };
  const found = COMMANDS.find(argv);
  const command = found ? await found.load() : undefined;
  try {
    if (command && found) process.exit(await command.execute(argv.slice(found.words), io));
    const [first] = argv;
    if (first === 'version' || first === '-version' || first === '--version') {
      process.stdout.write(`Ward platform v${VERSION}\n`);
      process.exit(0);
    }
    if (first === undefined) throw new UsageError('no command given');
    // Before the command only -help is a flag.
    if (first === 'help' || parseGoFlags([first], new Map(), 'go').isHelp) {
      process.stdout.write(usage());
      process.exit(0);
    }
    throw new UsageError(`unknown command "${argv.filter((a) => !a.startsWith('-')).join(' ')}"`);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(usageErrorText(err.message, command ? command.help() : usage()));
      process.exit(err.exitCode);
    }
    if (err instanceof CliError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    process.stderr.write(`Error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  }
}
