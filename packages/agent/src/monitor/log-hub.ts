/** Log streaming: the agent's logger fans out to each open monitor at its own level and format. @module */
import { createLogger, type LogFields, type Logger, type LogLevel, type LogSink } from '@ward/base';

interface Target {
  logger: Logger;
}

/**
 * The agent's logger: every entry goes to the console target and to each open
 * monitor, each formatted at its own level and format. Levels are per target, so a
 * monitor asking for `trace` sees trace lines even when stderr shows only `info`.
 */
export class LogHub {
  readonly #targets = new Set<Target>();

  /** Adds a target; the returned function removes it. */
  subscribe(options: { level: LogLevel; json: boolean; sink: LogSink; now?: () => number }): () => void {
    const target = { logger: createLogger(options) };
    this.#targets.add(target);
    return () => this.#targets.delete(target);
  }

  /** The logger to hand to the rest of the agent. */
  logger(base: LogFields = {}): Logger {
    const emit = (level: LogLevel) => (msg: string, fields?: LogFields) => {
      for (const t of this.#targets) t.logger[level](msg, { ...base, ...fields });
    };
    return {
      trace: emit('trace'),
      debug: emit('debug'),
      info: emit('info'),
      warn: emit('warn'),
      error: emit('error'),
      child: (fields) => this.logger({ ...base, ...fields }),
    };
  }
}
