import { type Logger as PinoLogger, pino } from 'pino';

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
  /**
   * Whether lines at `level` are written; lets a caller skip building fields nobody reads (the
   * request log, once per request). A logger without it writes every level.
   */
  isEnabled?(level: LogLevel): boolean;
}

export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

/**
 * How every binary writes its log (`-log-format` / `log_format`): `standard`, human-readable
 * lines, or `json`, one JSON object per line. The established tools spell them so.
 */
export type LogFormat = 'standard' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['standard', 'json'];

/** Whether `value` names a log format (exactly, as the established server compares it). */
export function isLogFormat(value: unknown): value is LogFormat {
  return LOG_FORMATS.includes(value as LogFormat);
}

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

/**
 * A logger over pino writing one line per entry to a sink (stderr by default): pino's JSON with
 * the established field names (`@timestamp`, `@level`, `@message`), or, unless `json`, the
 * human-readable `time [LEVEL] msg: k=v` rendered from that same JSON line.
 */
export function createLogger(options: LoggerOptions = {}, base: LogFields = {}): Logger {
  const sink = options.sink ?? process.stderr;
  const now = options.now ?? Date.now;
  const root = pino(
    {
      level: options.level ?? 'info',
      base: null,
      messageKey: '@message',
      timestamp: () => `,"@timestamp":"${new Date(now()).toISOString()}"`,
      formatters: { level: (label) => ({ '@level': label }) },
    },
    { write: (line: string) => sink.write(options.json ? line : humanLine(line)) },
  );
  return wrap(Object.keys(base).length > 0 ? root.child(redact(base)) : root);
}

function wrap(target: PinoLogger): Logger {
  const at =
    (level: LogLevel) =>
    (msg: string, fields?: LogFields): void => {
      if (!target.isLevelEnabled(level)) return;
      if (fields) target[level](redact(fields), msg);
      else target[level](msg);
    };
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => wrap(target.child(redact(fields))),
    isEnabled: (level) => target.isLevelEnabled(level),
  };
}

/** `2024-01-01T00:00:00.000Z [INFO] listening: url=http://…` from one pino JSON line. */
function humanLine(line: string): string {
  const { '@timestamp': time, '@level': level, '@message': msg, ...fields } = JSON.parse(line) as LogFields;
  const rest = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${time} [${String(level).toUpperCase()}] ${msg}${rest ? `: ${rest}` : ''}\n`;
}

/** A logger that drops everything; for tests that do not read logs. */
export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
  isEnabled: () => false,
};
