import { isLogFormat, LOG_LEVELS, type LogLevel } from '@ward/base';
import type { LogSource } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import { logStream } from './log-stream.js';

/** The server's log is the server's business: `sudo`, as for the other whole-server paths. */
export const MONITOR_ROOT_PATHS = ['monitor'];

/**
 * `GET sys/monitor?log_level=…&log_format=…`: the server's log lines from now on, streamed as
 * text until the client disconnects, at the asked level whatever the server itself logs.
 */
export function pathMonitor(source: LogSource | undefined): PathDefinition {
  return definePath({
    pattern: 'monitor',
    fields: {
      log_level: field.string({ description: 'trace, debug, info (default), warn or error.' }),
      log_format: field.string({ description: 'standard (default) or json.' }),
    },
    operations: {
      read: {
        summary: 'Stream the server log.',
        handler: async ({ data }) => {
          const level = (data.log_level || 'info').toLowerCase();
          // The established spelling of `error` is accepted too (`err`).
          const logLevel = (level === 'err' ? 'error' : level) as LogLevel;
          if (!LOG_LEVELS.includes(logLevel)) throw new InvalidRequestError(`unknown log level "${data.log_level}"`);
          const format = data.log_format || 'standard';
          if (!isLogFormat(format)) throw new InvalidRequestError(`unknown log format "${format}"`);
          if (!source) throw new InvalidRequestError('this server does not stream its log');
          const contentType = format === 'json' ? 'application/json' : 'text/plain';
          return { raw: { status: 200, body: null, contentType, stream: logStream(source, logLevel, format) } };
        },
      },
    },
    help: {
      synopsis: 'Stream the server log.',
      description:
        'Lines are sent as they are logged, at log_level (which may be finer than the server’s own) and in log_format. A reader slower than the log loses lines rather than slowing the server.',
    },
  });
}
