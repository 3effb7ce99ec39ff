import { createLogger, systemClock } from '@ward/base';
import { ADMIN_CREATE_USAGE, adminCreate } from './admin-create.js';
import { CliError } from './exit-error.js';
import { wantsHelp } from './go-style-args.js';
import { serve } from './serve.js';
import { parseServeOptions, SERVE_USAGE } from './serve-options.js';

const USAGE = `Usage: ward-platform <command> [options]

Commands:
  serve          run the platform API (/api/v2) and the billing pages (/app)
  admin create   add a site administrator and print its API token

${SERVE_USAGE}
${ADMIN_CREATE_USAGE}`;

/**
 * Entry point of `bin/ward-platform`, and the only place that ends the process: errors become
 * an exit code here, and `serve` runs until SIGINT or SIGTERM.
 */
export async function run(argv: string[]): Promise<void> {
  try {
    const [command, ...rest] = argv;
    if (command === 'serve' && wantsHelp(rest)) return printHelp(SERVE_USAGE);
    if (command === 'admin' && rest[0] === 'create' && wantsHelp(rest)) return printHelp(ADMIN_CREATE_USAGE);
    if (command === 'serve') {
      const opts = await parseServeOptions(rest, process.env);
      const logger = createLogger({ level: opts.logLevel });
      const server = await serve(opts, { clock: systemClock, logger, print: (l) => process.stdout.write(`${l}\n`) });
      const stop = () => {
        logger.info('shutting down');
        server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    if (command === 'admin' && rest[0] === 'create') {
      for (const line of await adminCreate(rest.slice(1), { clock: systemClock, env: process.env }))
        process.stdout.write(`${line}\n`);
      process.exit(0);
    }
    if (command === undefined || command === 'help' || wantsHelp([command])) {
      process.stdout.write(USAGE);
      process.exit(command === undefined ? 2 : 0);
    }
    throw new CliError(`unknown command "${command}"\n\n${USAGE}`, 2);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    process.stderr.write(`Error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  }
}

function printHelp(usage: string): void {
  process.stdout.write(usage);
  process.exit(0);
}
