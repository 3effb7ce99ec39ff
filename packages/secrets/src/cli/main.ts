#!/usr/bin/env node
import { LogicalError } from '../logical/errors.js';
import { runServer, SERVER_BOOLEAN_FLAGS, SERVER_HELP } from './commands/server.js';
import { parseArgs, UsageError } from './flags.js';

const USAGE = `Usage: ward <command> [args]

Commands:
  server    Start the secrets server (ward server -dev, ward server -config=FILE)

Run "ward <command> -help" for a command's options.
`;

/** Runs the CLI; the only place that decides the exit status. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '-help' || command === '--help') {
    process.stdout.write(USAGE);
    return command ? 0 : 1;
  }
  try {
    switch (command) {
      case 'server': {
        if (rest.some((a) => /^--?h(elp)?$/.test(a))) {
          process.stdout.write(SERVER_HELP);
          return 0;
        }
        await runServer(parseArgs(rest, SERVER_BOOLEAN_FLAGS), process.env, process.stdout);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof LogicalError) {
      process.stderr.write(`Error: ${err.message}\n`);
      return err instanceof UsageError ? 1 : 2;
    }
    process.stderr.write(`Error: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
