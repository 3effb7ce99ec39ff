/** The `ward-platform` command line: serve, admin create, dev seed. @module */
import { createLogger, parseGoFlags, systemClock, UsageError, usageErrorText } from '@ward/base';
import { ADMIN_CREATE_FLAGS, ADMIN_CREATE_USAGE, adminCreate } from './admin-create.js';
import { CliError } from './exit-error.js';
import { serve } from './serve.js';
import { parseServeOptions, SERVE_FLAGS, SERVE_USAGE } from './serve-options.js';

/** This build's version, as `ward version` and `ward-agent version` print theirs. */
const VERSION = '0.1.0';

const USAGE = `Usage: ward-platform <command> [options]

Commands:
  serve          run the platform API (/api/v2) and the billing pages (/app)
  admin create   add a site administrator and print its API token
  version        print the version (also -version)

Run "ward-platform <command> -help" for a command's options and an example.
`;

/**
 * Entry point of `bin/ward-platform`, and the only place that ends the process: errors become
 * an exit code here (2 for a usage error), and `serve` runs until SIGINT or SIGTERM.
 */
export async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const isAdminCreate = command === 'admin' && rest[0] === 'create';
  const usage = command === 'serve' ? SERVE_USAGE : isAdminCreate ? ADMIN_CREATE_USAGE : USAGE;
  try {
    if (command === 'serve') {
      if (parseGoFlags(rest, SERVE_FLAGS, 'go').isHelp) return printHelp(SERVE_USAGE);
      return await runServe(rest);
    }
    if (isAdminCreate) {
      if (parseGoFlags(rest.slice(1), ADMIN_CREATE_FLAGS, 'go').isHelp) return printHelp(ADMIN_CREATE_USAGE);
      for (const line of await adminCreate(rest.slice(1), { clock: systemClock, env: process.env }))
        process.stdout.write(`${line}\n`);
      process.exit(0);
    }
    if (command === 'version' || command === '-version' || command === '--version') {
      process.stdout.write(`Ward platform v${VERSION}\n`);
      process.exit(0);
    }
    if (command === undefined) throw new UsageError('no command given');
    // Before the command only -help is a flag.
    if (command === 'help' || parseGoFlags([command], new Map(), 'go').isHelp) return printHelp(USAGE);
    throw new UsageError(`unknown command "${argv.filter((a) => !a.startsWith('-')).join(' ')}"`);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(usageErrorText(err.message, usage));
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

async function runServe(argv: string[]): Promise<void> {
  const opts = await parseServeOptions(argv, process.env);
  const logger = createLogger({ level: opts.logLevel, json: opts.logFormat === 'json' });
  const server = await serve(opts, { clock: systemClock, logger, print: (l) => process.stdout.write(`${l}\n`) });
  const stop = () => {
    logger.info('shutting down');
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function printHelp(usage: string): void {
  process.stdout.write(usage);
  process.exit(0);
}
