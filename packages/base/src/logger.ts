export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

/** Structured logger. Callers never pass secrets; keys that look secret are redacted anyway. */
export interface Logger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

/** Field names whose values never reach a log, whatever a caller passes by mistake. */
const SECRET_KEY = /token|password|secret|^key$|_key$|pin|credential|authorization/i;

export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_KEY.test(k) && v !== undefined && v !== null && v !== '') out[k] = '[redacted]';
    else if (v instanceof Error) out[k] = v.stack ?? v.message;
    else out[k] = v;
  }
  return out;
}

export interface LogSink {
  write(line: string): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  json?: boolean;
  sink?: LogSink;
  now?: () => number;
}

/** A logger writing one line per entry (JSON or `time [LEVEL] msg: k=v`) to a sink, stderr by default. */
export function createLogger(options: LoggerOptions = {}, base: LogFields = {}): Logger {
  const minIndex = LOG_LEVELS.indexOf(options.level ?? 'info');
  const sink = options.sink ?? process.stderr;
  const now = options.now ?? Date.now;
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(level) < minIndex) return;
    const all = redact({ ...base, ...fields });
    const time = new Date(now()).toISOString();
    if (options.json) {
      sink.write(`${JSON.stringify({ '@timestamp': time, '@level': level, '@message': msg, ...all })}\n`);
      return;
    }
    const rest = Object.entries(all)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    sink.write(`${time} [${level.toUpperCase()}] ${msg}${rest ? `: ${rest}` : ''}\n`);
  };
  return {
    trace: (m, f) => emit('trace', m, f),
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger(options, { ...base, ...fields }),
  };
}

/** A logger that drops everything; for tests that do not read logs. */
export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};
