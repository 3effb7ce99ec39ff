import { isLogFormat, LOG_LEVELS } from '@ward/base';
import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/**
 * `ward monitor`: the server's log lines as they are written (`sys/monitor`), like `tail -f`,
 * until interrupted or the server goes away.
 */
export const monitorCommand = defineCommand({
  name: 'monitor',
  summary: 'Stream the server log (needs sudo on sys/monitor).',
  usage: '',
  example: 'ward monitor -log-level=debug',
  description:
    'Runs until interrupted. The level may be finer than the one the server logs at. A reader slower than the log loses lines.',
  flags: {
    'log-level': flag.string('trace, debug, info, warn or error.', 'info'),
    'log-format': flag.string('standard or json.', 'standard'),
  },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, writeRaw }) {
    const level = flags['log-level'].toLowerCase();
    if (!LOG_LEVELS.includes(level as never) && level !== 'err') {
      throw new UsageError(`invalid log level "${flags['log-level']}": use trace, debug, info, warn or error`);
    }
    const format = flags['log-format'].toLowerCase();
    if (!isLogFormat(format)) throw new UsageError(`invalid log format "${flags['log-format']}": use standard or json`);
    const stream = await client.sys.monitor({ logLevel: level, logFormat: format });
    for await (const chunk of stream) await writeRaw(chunk);
    return undefined;
  },
});
