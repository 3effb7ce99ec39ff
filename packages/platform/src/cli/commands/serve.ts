import { createLogger } from '@ward/base';
import { defineCommand } from '../command.js';
import { serve } from '../serve.js';
import { parseServeOptions, SERVE_FLAGS, SERVE_USAGE } from '../serve-options.js';

/** `ward-platform serve`: runs until SIGINT or SIGTERM, then closes the server and exits 0. */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the platform API (/api/v2) and the billing pages (/app)',
  flags: SERVE_FLAGS,
  help: SERVE_USAGE,
  async run({ given, args }, io) {
    const opts = await parseServeOptions(given, args, io.env);
    const logger = createLogger({ level: opts.logLevel, json: opts.logFormat === 'json' });
    const server = await serve(opts, { clock: io.clock, logger, print: (l) => io.stdout.write(`${l}\n`) });
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    logger.info('shutting down');
    await server.close();
    return 0;
  },
});
